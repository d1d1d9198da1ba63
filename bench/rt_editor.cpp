// Benchmark client: runs a program with pipes and plays the other side of it. Modes:
//   rt_editor rpc -- CMD...      an editor on the editor protocol (CMD is askhost --stdio -- AGENT,
//                                or the Node relay): answers every ask/show at once, and after
//                                agent/exit says shutdown and exit
//   rt_editor direct -- CMD...   the physical floor: the agent itself on a direct pipe, its
//                                ask_user_request lines answered with ask_user_response lines
//   rt_editor drain -- CMD...    an editor that reads agent/output until agent/exit; prints
//                                "BYTES SECONDS" (bytes of frames read)
//   rt_editor raw -- CMD...      reads CMD's stdout to the end; prints "BYTES SECONDS"
//   rt_editor hold N -- CMD...   an editor that answers nothing; once N asks are pending (N=0:
//                                idle, after the first ask/state) prints CMD's "VmHWM_kB VmRSS_kB
//                                RssAnon_kB" (the last: its own memory, not the pages of its
//                                program and libraries mapped from the files)
//   rt_editor mcp -- CMD...      an MCP client: initialize, tools/list, tools/call
//                                ask_user_question with answers; prints the seconds from start
//                                to the call's result
//   rt_editor mcpwarm N -- CMD... the same client after its first call: N more calls, one at a
//                                time (after 50 for warm-up); prints "P50_US P99_US" per call
// The answers are built from the questions (first option, or a typed text), with rapidjson.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace {

using Clock = std::chrono::steady_clock;
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct Child {
    pid_t pid = -1;
    int in = -1;   // its stdin
    int out = -1;  // its stdout
};

Child spawn(char** argv) {
    int to[2], from[2];
    if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) std::exit(90);
    pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(to[0], 0);
        ::dup2(from[1], 1);
        ::execvp(argv[0], argv);
        std::perror(argv[0]);
        ::_exit(127);
    }
    ::close(to[0]);
    ::close(from[1]);
    return {pid, to[1], from[0]};
}

int wait_child(const Child& c) {
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void write_all(int fd, std::string_view s) {
    while (!s.empty()) {
        ssize_t n = ::write(fd, s.data(), s.size());
        if (n <= 0) return;
        s.remove_prefix(static_cast<std::size_t>(n));
    }
}

// Reads into one buffer, straight from the pipe, and hands out lines and frame bodies; the bytes
// left after the last whole one move to the front only when the free space behind them runs low.
class Reader {
public:
    explicit Reader(int fd) : fd_(fd), buf_(kInitial) {}
    std::size_t bytes = 0;

    bool line(std::string& out) {
        std::string_view l;
        if (!line(l)) return false;
        out.assign(l);
        return true;
    }

    bool line(std::string_view& out) {
        for (;;) {
            const std::string_view have = data();
            const auto nl = have.find('\n');
            if (nl != std::string_view::npos) {
                out = have.substr(0, nl);
                pos_ += nl + 1;
                return true;
            }
            if (!fill()) return false;
        }
    }

    bool frame(std::string& body) {
        std::string_view b;
        if (!frame(b)) return false;
        body.assign(b);
        return true;
    }

    // One Content-Length frame's body, valid until the next call. The header is parsed once; a
    // large body is then only waited for, not searched again on every read.
    bool frame(std::string_view& body) {
        for (;;) {
            const std::string_view have = data();
            if (want_ == npos) {
                const auto end = have.find("\r\n\r\n");
                if (end != std::string_view::npos) {
                    const auto cl = have.find("Content-Length:");
                    if (cl == std::string_view::npos || cl > end) std::exit(91);
                    want_ = std::strtoull(have.data() + cl + 15, nullptr, 10);
                    pos_ += end + 4;
                    continue;
                }
            } else if (have.size() >= want_) {
                body = have.substr(0, want_);
                pos_ += want_;
                want_ = npos;
                return true;
            }
            if (!fill()) return false;
        }
    }

private:
    static constexpr std::size_t kInitial = std::size_t{1} << 20, kRead = std::size_t{1} << 16;

    std::string_view data() const { return {buf_.data() + pos_, end_ - pos_}; }

    bool fill() {
        if (buf_.size() - end_ < kRead) {
            // Move what is left to the front, and grow when a frame needs more room than that.
            std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
            end_ -= pos_;
            pos_ = 0;
            const std::size_t need = std::max(end_ + kRead, want_ == npos ? 0 : want_ + kRead);
            if (buf_.size() < need) buf_.resize(std::max(need, buf_.size() * 2));
        }
        const ssize_t n = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
        if (n <= 0) return false;
        bytes += static_cast<std::size_t>(n);
        end_ += static_cast<std::size_t>(n);
        return true;
    }

    static constexpr std::size_t npos = std::string::npos;
    int fd_;
    std::vector<char> buf_;
    std::size_t pos_ = 0, end_ = 0;  // the unread bytes: buf_[pos_, end_)
    std::size_t want_ = npos;        // body bytes of the frame whose header was read
};

std::string frame_of(std::string_view body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

// {"answered":true,"answers":[...]} for the questions array, as members of an open object.
void write_answers(Writer& w, const rapidjson::Value& questions) {
    w.Key("answered");
    w.Bool(true);
    w.Key("answers");
    w.StartArray();
    for (const auto& q : questions.GetArray()) {
        w.StartObject();
        w.Key("question");
        w.String(q["question"].GetString(), q["question"].GetStringLength());
        auto opts = q.FindMember("options");
        bool has_option = opts != q.MemberEnd() && opts->value.IsArray() && !opts->value.Empty();
        w.Key("answer");
        if (has_option) {
            const auto& label = opts->value[0]["label"];
            w.String(label.GetString(), label.GetStringLength());
            w.Key("selectedOption");
            w.String(label.GetString(), label.GetStringLength());
        } else {
            w.String("typed answer");
        }
        w.Key("wasCustom");
        w.Bool(!has_option);
        w.EndObject();
    }
    w.EndArray();
}

void send_rpc(const Child& c, const std::string& body) { write_all(c.in, frame_of(body)); }

void initialize(const Child& c) {
    send_rpc(
        c,
        R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"clientInfo":{"name":"rt_editor"},"capabilities":{"ask":{}}}})");
    send_rpc(c, R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
}

void shutdown(const Child& c) {
    send_rpc(c, R"({"jsonrpc":"2.0","id":"bye","method":"shutdown"})");
    send_rpc(c, R"({"jsonrpc":"2.0","method":"exit"})");
}

int mode_rpc(char** cmd) {
    Child c = spawn(cmd);
    initialize(c);
    Reader r(c.out);
    std::string body;
    bool said_bye = false;
    while (r.frame(body)) {
        if (body.find("\"method\":\"ask/show\"") != std::string::npos) {
            rapidjson::Document d;
            d.Parse(body.data(), body.size());
            rapidjson::StringBuffer buf;
            Writer w(buf);
            w.StartObject();
            w.Key("jsonrpc");
            w.String("2.0");
            w.Key("id");
            d["id"].Accept(w);
            w.Key("result");
            w.StartObject();
            write_answers(w, d["params"]["questions"]);
            w.EndObject();
            w.EndObject();
            send_rpc(c, {buf.GetString(), buf.GetSize()});
        } else if (!said_bye && body.find("\"method\":\"agent/exit\"") != std::string::npos) {
            said_bye = true;
            shutdown(c);
        }
    }
    ::close(c.in);
    return wait_child(c);
}

int mode_direct(char** cmd) {
    Child c = spawn(cmd);
    Reader r(c.out);
    std::string line;
    while (r.line(line)) {
        if (line.find("\"ask_user_request\"") == std::string::npos) continue;
        rapidjson::Document d;
        d.Parse(line.data(), line.size());
        if (d.HasParseError()) continue;
        rapidjson::StringBuffer buf;
        Writer w(buf);
        w.StartObject();
        w.Key("type");
        w.String("ask_user_response");
        w.Key("requestId");
        d["requestId"].Accept(w);
        write_answers(w, d["questions"]);
        w.EndObject();
        std::string out(buf.GetString(), buf.GetSize());
        out.push_back('\n');
        write_all(c.in, out);
    }
    ::close(c.in);
    return wait_child(c);
}

int mode_drain(char** cmd, bool raw) {
    auto t0 = Clock::now();
    Child c = spawn(cmd);
    Reader r(c.out);
    if (raw) {
        std::string line;
        char chunk[1 << 16];
        ssize_t n;
        std::size_t bytes = 0;
        while ((n = ::read(c.out, chunk, sizeof chunk)) > 0) bytes += static_cast<std::size_t>(n);
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        std::printf("%zu %.6f\n", bytes, s);
        ::close(c.in);
        return wait_child(c);
    }
    initialize(c);
    std::string_view body;  // read where it lies: the reader copies nothing, as cat's reader does not
    double s = 0;
    while (r.frame(body)) {
        if (body.find("\"method\":\"agent/exit\"") != std::string_view::npos) {
            s = std::chrono::duration<double>(Clock::now() - t0).count();
            shutdown(c);
        }
    }
    std::printf("%zu %.6f\n", r.bytes, s);
    ::close(c.in);
    return wait_child(c);
}

std::string proc_status(pid_t pid, const char* key) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(key, 0) == 0) {
            std::istringstream in(line.substr(std::strlen(key)));
            std::string v;
            in >> v;
            return v;
        }
    return "?";
}

int mode_hold(long n, char** cmd) {
    Child c = spawn(cmd);
    initialize(c);
    Reader r(c.out);
    std::string body;
    const std::string want = n > 0 ? "\"id\":\"ask-" + std::to_string(n) + "\"" : "\"method\":\"ask/state\"";
    while (r.frame(body)) {
        if (body.find("\"method\":\"ask/state\"") != std::string::npos && body.find(want) != std::string::npos) {
            if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the agent is up
            std::printf("%s %s %s\n", proc_status(c.pid, "VmHWM:").c_str(), proc_status(c.pid, "VmRSS:").c_str(),
                        proc_status(c.pid, "RssAnon:").c_str());
            std::fflush(stdout);
            break;
        }
    }
    ::close(c.in);  // the editor goes away: askhost stops the agent and exits
    while (r.frame(body)) {}
    wait_child(c);
    return 0;
}

int mode_mcp(char** cmd) {
    auto t0 = Clock::now();
    Child c = spawn(cmd);
    Reader r(c.out);
    std::string line;
    auto call = [&](const std::string& msg, const char* id) {
        write_all(c.in, msg + "\n");
        if (!id) return true;
        const std::string want = std::string("\"id\":") + id;
        while (r.line(line))
            if (line.find(want) != std::string::npos) return true;
        return false;
    };
    bool ok =
        call(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rt_editor","version":"1"}}})",
            "1") &&
        call(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", nullptr) &&
        call(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", "2") &&
        call(
            R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"File-based"}],"multiSelect":false}],"answers":{"Which database should we use?":"SQLite"}}}})",
            "3");
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!ok || line.find("SQLite") == std::string::npos) {
        std::fprintf(stderr, "rt_editor mcp: no result (last line: %s)\n", line.c_str());
        ::kill(c.pid, SIGKILL);
        wait_child(c);
        return 1;
    }
    std::printf("%.6f\n", s);
    ::close(c.in);
    ::kill(c.pid, SIGTERM);
    wait_child(c);
    return 0;
}

int mode_mcp_warm(long n, char** cmd) {
    Child c = spawn(cmd);
    Reader r(c.out);
    std::string line;
    auto call = [&](const std::string& msg, long id) {
        write_all(c.in, msg + "\n");
        if (id < 0) return true;
        const std::string want = "\"id\":" + std::to_string(id) + ",";
        const std::string last = "\"id\":" + std::to_string(id) + "}";
        while (r.line(line))
            if (line.find(want) != std::string::npos || line.find(last) != std::string::npos) return true;
        return false;
    };
    auto tool_call = [](long id) {
        return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
               R"(,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"File-based"}],"multiSelect":false}],"answers":{"Which database should we use?":"SQLite"}}}})";
    };
    bool ok =
        call(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rt_editor","version":"1"}}})",
            1) &&
        call(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", -1) &&
        call(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", 2);
    std::vector<double> us;
    const long warm = 50;
    for (long i = 0; ok && i < warm + n; ++i) {
        auto t0 = Clock::now();
        ok = call(tool_call(3 + i), 3 + i) && line.find("SQLite") != std::string::npos;
        if (i >= warm) us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    ::close(c.in);
    if (!ok) {
        std::fprintf(stderr, "rt_editor mcpwarm: no result (last line: %s)\n", line.c_str());
        ::kill(c.pid, SIGKILL);
        wait_child(c);
        return 1;
    }
    ::kill(c.pid, SIGTERM);
    wait_child(c);
    std::sort(us.begin(), us.end());
    std::printf("%.2f %.2f\n", us[us.size() / 2], us[std::min(us.size() - 1, us.size() * 99 / 100)]);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    ::signal(SIGPIPE, SIG_IGN);
    int dash = 1;
    while (dash < argc && std::strcmp(argv[dash], "--") != 0) ++dash;
    if (argc < 2 || dash + 1 >= argc) {
        std::fprintf(stderr, "usage: rt_editor rpc|direct|drain|raw|mcp|mcpwarm N|hold N -- CMD...\n");
        return 2;
    }
    char** cmd = argv + dash + 1;
    std::string_view mode = argv[1];
    if (mode == "rpc") return mode_rpc(cmd);
    if (mode == "direct") return mode_direct(cmd);
    if (mode == "drain") return mode_drain(cmd, false);
    if (mode == "raw") return mode_drain(cmd, true);
    if (mode == "mcp") return mode_mcp(cmd);
    if (mode == "mcpwarm" && argc > 2) return mode_mcp_warm(std::atol(argv[2]), cmd);
    if (mode == "hold" && argc > 2) return mode_hold(std::atol(argv[2]), cmd);
    std::fprintf(stderr, "rt_editor: unknown mode\n");
    return 2;
}
