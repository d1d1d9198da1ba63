// The one translation unit that includes Boost.Process: it costs seconds to compile.
#include "agent/supervisor.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/read.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include "core/lifetime.hpp"
#include "core/search_path.hpp"

namespace bp = boost::process;

namespace askhost {

namespace {

// The interpreter a script's "#!" line names, when the script exists and that interpreter does
// not: exec's ENOENT then means the interpreter, not the script (a shell says "bad interpreter").
// Relative paths are the child's: from cwd, where it was to run.
std::optional<std::string> missing_interpreter(const std::string& script, const std::string& cwd) {
    const auto in_cwd = [&](const std::string& path) { return path.starts_with('/') ? path : cwd + "/" + path; };
    const int fd = ::open(in_cwd(script).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char head[256];
    const ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    if (n < 3 || head[0] != '#' || head[1] != '!') return std::nullopt;
    std::string_view line(head + 2, static_cast<std::size_t>(n) - 2);
    line = line.substr(0, line.find('\n'));
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return std::nullopt;
    line.remove_prefix(start);
    std::string interpreter(line.substr(0, line.find_first_of(" \t\r")));
    struct stat st {};
    if (interpreter.empty() || ::stat(in_cwd(interpreter).c_str(), &st) == 0) return std::nullopt;
    return interpreter;
}

}  // namespace

struct Supervisor::Impl {
    boost::asio::io_context& io;
    Callbacks cb;
    bp::async_pipe in_pipe, out_pipe, err_pipe;
    boost::asio::signal_set sigchld;
    boost::asio::steady_timer kill_timer;
    boost::asio::steady_timer drain_timer;
    boost::asio::steady_timer term_timer;
    pid_t pid = -1;
    bool reaped = false, out_open = false, err_open = false, exit_reported = false;
    bool stdin_open = false, writing = false, close_after_write = false;
    AgentExit exit;
    std::array<char, 65536> out_buf{}, err_buf{};
    std::string line;
    bool line_overflowed = false;
    // The unfinished last line of a read, moved to out_buf's front: the next read goes on after
    // it, so the whole line is in place there too (a flood's lines straddle its reads). Longer
    // ones are assembled in `line` instead.
    static constexpr std::size_t max_kept = 16384;
    std::size_t kept = 0;
    std::string_view tail;  // what take_stdout left to keep, until the read's lines were handed on
    // Output reading paused (the reader is behind): a finished read parks instead of reading on.
    bool paused = false, out_parked = false, err_parked = false;
    std::deque<std::string> write_queue;
    std::size_t front_written = 0;  // bytes of write_queue.front() already written
    Lifetime alive;

    Impl(boost::asio::io_context& io_, Callbacks c)
        : io(io_),
          cb(std::move(c)),
          in_pipe(io_),
          out_pipe(io_),
          err_pipe(io_),
          sigchld(io_, SIGCHLD),
          kill_timer(io_),
          drain_timer(io_),
          term_timer(io_) {}

    void read_out() {
        out_pipe.async_read_some(boost::asio::buffer(out_buf.data() + kept, out_buf.size() - kept),
                                 [this, a = alive.token()](const boost::system::error_code& ec, std::size_t n) {
                                     if (!a) return;
                                     if (n) {
                                         take_stdout(std::string_view(out_buf.data(), kept + n));
                                         if (!a) return;
                                         if (cb.on_stdout_read_end) cb.on_stdout_read_end();
                                         if (!a) return;
                                         // Only now: the lines before it were in place until here.
                                         // (memmove wants a pointer even for no bytes: an empty tail has none)
                                         if (!tail.empty()) std::memmove(out_buf.data(), tail.data(), tail.size());
                                         kept = tail.size();
                                         tail = {};
                                     }
                                     if (ec) {
                                         if (kept) {
                                             if (cb.on_stdout_line) cb.on_stdout_line({out_buf.data(), kept}, false);
                                             if (!a) return;
                                             kept = 0;
                                         }
                                         if (!line.empty()) {
                                             if (line_overflowed) {
                                                 if (cb.on_stdout_raw) cb.on_stdout_raw(line);
                                             } else if (cb.on_stdout_line) cb.on_stdout_line(line, false);
                                             line.clear();
                                         }
                                         out_open = false;
                                         if (cb.on_stdout_closed) cb.on_stdout_closed();
                                         maybe_report();
                                         return;
                                     }
                                     if (paused) out_parked = true;  // resume_output() reads on
                                     else read_out();
                                 });
    }

    // data: out_buf's bytes, the kept start of a line first. The unfinished end is left in `tail`.
    void take_stdout(std::string_view data) {
        if (cb.on_stdout_lines && line.empty() && !line_overflowed) {
            // The whole lines of this read at once (one call, not one a line): a flood's hot path.
            const auto last = data.rfind('\n');
            if (last != std::string_view::npos) {
                cb.on_stdout_lines(data.substr(0, last + 1));
                data.remove_prefix(last + 1);
            }
        }
        while (!data.empty()) {
            auto nl = data.find('\n');
            std::string_view part = data.substr(0, nl);
            if (nl != std::string_view::npos && line.empty() && !line_overflowed) {
                // A whole line inside this read: handed on in place, not copied.
                if (cb.on_stdout_line) cb.on_stdout_line(part, true);
                data.remove_prefix(nl + 1);
                continue;
            }
            if (nl == std::string_view::npos && line.empty() && !line_overflowed && data.size() <= max_kept) {
                tail = data;
                return;
            }
            if (line.size() + part.size() > max_line_bytes) {
                // Too long for a protocol message: pass it on as output, in pieces.
                line_overflowed = true;
                if (cb.on_stdout_raw) {
                    cb.on_stdout_raw(line);
                    cb.on_stdout_raw(part);
                }
                line.clear();
            } else {
                line.append(part);
            }
            if (nl == std::string_view::npos) return;
            if (line_overflowed) {
                if (cb.on_stdout_raw) cb.on_stdout_raw(std::string(line) + "\n");
                line_overflowed = false;
            } else if (cb.on_stdout_line) {
                cb.on_stdout_line(line, false);
            }
            line.clear();
            data.remove_prefix(nl + 1);
        }
    }

    void read_err() {
        err_pipe.async_read_some(boost::asio::buffer(err_buf),
                                 [this, a = alive.token()](const boost::system::error_code& ec, std::size_t n) {
                                     if (!a) return;
                                     if (n && cb.on_stderr) cb.on_stderr(std::string_view(err_buf.data(), n));
                                     if (ec) {
                                         err_open = false;
                                         maybe_report();
                                         return;
                                     }
                                     if (paused) err_parked = true;
                                     else read_err();
                                 });
    }

    void wait_child() {
        sigchld.async_wait([this, a = alive.token()](const boost::system::error_code& ec, int) {
            if (!a || ec) return;
            try_reap();
            if (!reaped) wait_child();
        });
    }

    void try_reap() {
        if (reaped || pid <= 0) return;
        int status = 0;
        pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            reaped = true;
            if (WIFSIGNALED(status)) exit = {0, WTERMSIG(status)};
            else exit = {WEXITSTATUS(status), 0};
            drain_after_exit();
            maybe_report();
        } else if (r < 0 && errno == ECHILD) {
            reaped = true;
            maybe_report();
        }
    }

    // A background child of the agent may keep its pipes open: read what is already there,
    // then stop waiting for end-of-file.
    void drain_after_exit() {
        if (!out_open && !err_open) return;
        drain_timer.expires_after(std::chrono::milliseconds(500));
        drain_timer.async_wait([this, a = alive.token()](const boost::system::error_code& ec) {
            if (!a || ec) return;
            if (paused || out_parked || err_parked) {  // unread output waits for the reader: keep it
                drain_after_exit();
                return;
            }
            boost::system::error_code ignored;
            out_pipe.close(ignored);
            err_pipe.close(ignored);
        });
    }

    void maybe_report() {
        if (!reaped) {
            // Outputs closed first: the process is about to exit, or it closed them on purpose.
            if (!out_open && !err_open) try_reap();
            if (!reaped) return;
        }
        if (out_open || err_open || exit_reported) return;
        exit_reported = true;
        kill_timer.cancel();
        drain_timer.cancel();
        term_timer.cancel();
        sigchld.cancel();
        stdin_open = false;
        boost::system::error_code ignored;
        in_pipe.close(ignored);
        if (cb.on_exit) cb.on_exit(exit);
    }

    void pump() {
        if (writing || !stdin_open) return;
        if (write_queue.empty()) {
            if (close_after_write) {
                stdin_open = false;
                boost::system::error_code ignored;
                in_pipe.close(ignored);
            }
            return;
        }
        writing = true;
        // async_write_some, not the composed async_write: that one would go on writing to
        // in_pipe after a partial write even when this Impl was destroyed meanwhile (the
        // use-after-free ./dev fuzz found in Connection). Every continuation checks `alive`.
        in_pipe.async_write_some(boost::asio::buffer(write_queue.front()) + front_written,
                                 [this, a = alive.token()](const boost::system::error_code& ec, std::size_t n) {
                                     if (!a) return;
                                     writing = false;
                                     if (ec) {
                                         // The agent closed its stdin: nothing more can reach it.
                                         stdin_open = false;
                                         write_queue.clear();
                                         front_written = 0;
                                         return;
                                     }
                                     if (write_queue.empty()) return;  // a new start() cleared it meanwhile
                                     front_written += n;
                                     if (front_written >= write_queue.front().size()) {
                                         write_queue.pop_front();
                                         front_written = 0;
                                     }
                                     pump();
                                 });
    }
};

Supervisor::Supervisor(boost::asio::io_context& io, Callbacks callbacks)
    : impl_(std::make_unique<Impl>(io, std::move(callbacks))) {}

Supervisor::~Supervisor() {
    impl_->alive.end();
    if (running()) kill_now();
}

std::optional<Error> Supervisor::start(const LaunchSpec& spec) {
    if (spec.argv.empty()) return Error::usage("no agent command given");
    auto& d = *impl_;
    if (d.pid > 0 && !d.exit_reported) return Error::failed("an agent is already running");

    std::string exe = spec.argv[0];
    if (exe.find('/') == std::string::npos) {
        exe = search_path(spec.argv[0]);
        if (exe.empty()) return Error::not_found("cannot run '" + spec.argv[0] + "': not found on PATH");
    }
    std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
    bp::environment env = boost::this_process::environment();
    for (const auto& [k, v] : spec.env) env[k] = v;

    // Fresh pipes for every start (a client may start a new agent after the last one exited).
    d.in_pipe = bp::async_pipe(d.io);
    d.out_pipe = bp::async_pipe(d.io);
    d.err_pipe = bp::async_pipe(d.io);
    d.reaped = d.exit_reported = false;
    d.line.clear();
    d.kept = 0;
    d.tail = {};
    d.write_queue.clear();
    d.front_written = 0;
    d.writing = d.close_after_write = false;

    const pid_t parent = ::getpid();
    auto setup = bp::extend::on_exec_setup([parent](auto&) {
        ::setpgid(0, 0);  // own process group: signals reach the agent and its children
        // askhost killed outright (SIGKILL) cannot stop its agent: the kernel does, no orphan.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);  // askhost died before that took effect
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        // The agent inherits only its three pipes. Boost's limit_handles would close the
        // redirected stdio too (1.74), so: close every descriptor above 2 that exec would keep.
        // Close-on-exec ones stay (Boost's exec-error pipe is one of them).
        if (DIR* dir = ::opendir("/proc/self/fd")) {
            int self = ::dirfd(dir);
            std::vector<int> doomed;
            while (dirent* e = ::readdir(dir)) {
                int fd = std::atoi(e->d_name);
                if (e->d_name[0] == '.' || fd <= 2 || fd == self) continue;
                int flags = ::fcntl(fd, F_GETFD);
                if (flags >= 0 && !(flags & FD_CLOEXEC)) doomed.push_back(fd);
            }
            ::closedir(dir);
            for (int fd : doomed) ::close(fd);
        }
    });
    std::error_code ec;
    std::string cwd = spec.cwd.empty() ? std::string(".") : spec.cwd;
    bp::child child(bp::exe = exe, bp::args = args, bp::std_in<d.in_pipe, bp::std_out> d.out_pipe,
                    bp::std_err > d.err_pipe, bp::start_dir = cwd, env, setup, ec);
    if (ec) {
        std::string why = "cannot run '" + spec.argv[0] + "': " + ec.message();
        if (ec.value() == ENOENT)
            if (auto interpreter = missing_interpreter(exe, cwd))
                why = "cannot run '" + spec.argv[0] + "': its interpreter '" + *interpreter +
                      "' (its #! line) does not exist";
        if (ec.value() == ENOENT || ec.value() == ENOTDIR) return Error::not_found(why);
        if (ec.value() == EACCES || ec.value() == ENOEXEC || ec.value() == EISDIR || ec.value() == ETXTBSY)
            return Error::cannot_run(why);
        return Error::failed(why);
    }
    d.pid = child.id();
    child.detach();           // reaped here with waitpid, so exit status and signal are both known
    ::setpgid(d.pid, d.pid);  // also from the parent: no race with an early kill()
    d.stdin_open = d.out_open = d.err_open = true;
    d.read_out();
    d.read_err();
    d.wait_child();
    d.try_reap();
    return std::nullopt;
}

void Supervisor::write(std::string data) {
    auto& d = *impl_;
    if (!d.stdin_open || d.close_after_write) return;
    d.write_queue.push_back(std::move(data));
    d.pump();
}

void Supervisor::pause_output() { impl_->paused = true; }

void Supervisor::resume_output() {
    auto& i = *impl_;
    if (!i.paused) return;
    i.paused = false;
    if (i.out_parked) {
        i.out_parked = false;
        i.read_out();
    }
    if (i.err_parked) {
        i.err_parked = false;
        i.read_err();
    }
}

void Supervisor::close_stdin() {
    impl_->close_after_write = true;
    impl_->pump();
}

void Supervisor::stop(std::chrono::milliseconds grace) {
    auto& d = *impl_;
    if (!running()) return;
    ::kill(-d.pid, SIGTERM);
    d.kill_timer.expires_after(grace);
    d.kill_timer.async_wait([this, a = d.alive.token()](const boost::system::error_code& ec) {
        if (!a || ec) return;
        kill_now();
    });
}

void Supervisor::finish_then_stop(std::chrono::milliseconds wait, std::chrono::milliseconds grace) {
    auto& d = *impl_;
    if (!running()) return;
    close_stdin();
    d.term_timer.expires_after(wait);
    d.term_timer.async_wait([this, grace, a = d.alive.token()](const boost::system::error_code& ec) {
        if (!a || ec) return;
        stop(grace);
    });
}

void Supervisor::kill_now() {
    auto& d = *impl_;
    if (d.pid <= 0 || d.reaped) return;
    ::kill(-d.pid, SIGKILL);
    ::kill(d.pid, SIGKILL);
}

bool Supervisor::running() const { return impl_->pid > 0 && !impl_->reaped; }

int Supervisor::pid() const { return impl_->pid; }

}  // namespace askhost
