#include "agent/session.hpp"

#include <filesystem>
#include <functional>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace askhost {

Session::Session(boost::asio::io_context& io, Broker& broker, const AdapterInfo& adapter, Profile profile, Hooks hooks)
    : io_(io), broker_(broker), profile_(profile), hooks_(std::move(hooks)) {
    Supervisor::Callbacks cb;
    cb.on_stdout_line = [this](std::string_view line, bool in_place) {
        read_lines_ = in_place ? std::string_view(line.data(), line.size() + 1) : std::string_view();
        adapter_->on_line(line);
        read_lines_ = {};
    };
    cb.on_stdout_lines = [this](std::string_view lines) {
        read_lines_ = lines;
        adapter_->on_lines(lines);
        read_lines_ = {};
    };
    // The read buffer is about to be reused: what is held in it goes on now (one agent/output per read).
    cb.on_stdout_read_end = [this] {
        if (!in_place_.empty()) flush_held();
    };
    cb.on_stdout_raw = [this](std::string_view data) { output(Stream::Stdout, data); };
    cb.on_stderr = [this](std::string_view data) { output(Stream::Stderr, data); };
    cb.on_stdout_closed = [this] { adapter_->finished(); };
    cb.on_exit = [this](AgentExit e) {
        // Nobody is left to hand an answer to: close what the agent had open.
        auto asked = std::move(asked_);
        asked_.clear();
        for (const auto& a : asked)
            if (auto slot = a.lock(); slot && slot->open) broker_.withdraw(slot->id);
        flush_output();  // the agent's last words before its exit
        if (hooks_.exited) hooks_.exited(e);
    };
    supervisor_ = std::make_unique<Supervisor>(io, std::move(cb));
    adapter_ = adapter.create(*this);
}

Session::~Session() { lifetime_.end(); }

std::optional<Error> Session::start(const LaunchSpec& spec) {
    if (!spec.argv.empty()) agent_name_ = program_name(spec.argv[0]);
    std::error_code ec;  // the adapter may need it absolute (ACP's session/new, its file access)
    working_directory_ = std::filesystem::absolute(spec.cwd.empty() ? "." : spec.cwd, ec).lexically_normal().string();
    LaunchSpec launch = spec;
    adapter_->launching(launch.argv);
    auto err = supervisor_->start(launch);
    if (!err) adapter_->started();
    return err;
}

bool Session::prompt(std::string_view text) { return adapter_->prompt(text); }

void Session::stop(std::chrono::milliseconds grace) {
    if (supervisor_->running()) adapter_->stopping();
    supervisor_->close_stdin();
    supervisor_->stop(grace);
}

void Session::kill_now() { supervisor_->kill_now(); }

void Session::pause_output() { supervisor_->pause_output(); }

void Session::resume_output() { supervisor_->resume_output(); }

void Session::finish_then_stop() {
    // Outcomes decided this turn (e.g. connectionLost) reach the adapter on the next one: the
    // agent hears them before its input ends.
    boost::asio::post(io_, [this, token = lifetime_.token()] {
        if (token) supervisor_->finish_then_stop();
    });
}

bool Session::running() const { return supervisor_->running(); }

int Session::pid() const { return supervisor_->pid(); }

AskTicket Session::ask(AskInput input, OnOutcome reply) {
    flush_output();  // what the agent printed before it asked comes first
    Ask ask;
    ask.take_asked(std::move(input));
    ask.agent = agent_name_;
    ask.profile = profile_;
    if (hooks_.pre_answer)
        if (auto known = hooks_.pre_answer(ask)) return AskTicket::answered(io_, std::move(reply), std::move(*known));
    AskTicket ticket = broker_.ask(std::move(ask), std::move(reply));
    if (auto slot = ticket.slot().lock(); slot && slot->withdraw) {
        // What the agent printed before it took the ask back goes first.
        slot->withdraw = [this, token = lifetime_.token(), withdraw = std::move(slot->withdraw)] {
            if (token) flush_output();
            withdraw();
        };
        std::erase_if(asked_, [](const std::weak_ptr<AskSlot>& a) { return a.expired(); });
        asked_.push_back(slot);
    }
    return ticket;
}

// The lines of one read go on as one piece: a flood costs one agent/output per read, not one per
// line. Output that is not read as lines (stderr; stdout an adapter passes on) goes on in whole
// lines too, as the agent writes them: the part after the last '\n' waits for the rest of its line,
// at most Hooks::partial_line_wait (a prompt without a line break still shows). Anything else the
// agent does (ask, cancel, exit) first sends what is held, partial lines too, so order stays.
void Session::output(Stream stream, std::string_view text) {
    std::string& partial = partial_[stream == Stream::Stdout ? 0 : 1];
    const auto nl = text.rfind('\n');
    if (nl != std::string_view::npos) {
        if (!partial.empty()) {
            hold(stream, partial);
            partial.clear();
        }
        hold(stream, text.substr(0, nl + 1));
        text.remove_prefix(nl + 1);
    }
    partial.append(text);
    if (partial.size() >= kOutputPiece) {
        hold(stream, partial);
        partial.clear();
    }
    if (!partial.empty() && !partial_wait_armed_) {
        partial_wait_armed_ = true;
        after(hooks_.partial_line_wait, [this] {
            partial_wait_armed_ = false;
            release_partial_lines();
            flush_held();
        });
    }
}

bool Session::in_read(std::string_view text) const {
    const std::less_equal<const char*> le;
    return !read_lines_.empty() && le(read_lines_.data(), text.data()) &&
           le(text.data() + text.size(), read_lines_.data() + read_lines_.size());
}

bool Session::keep_in_place(Stream stream, std::string_view text) {
    // Held where it lies in the read buffer (in_read, checked by the caller) while what is held
    // before it lies just before it.
    if (stream != Stream::Stdout || (!held_output_.empty() && held_stream_ != Stream::Stdout) ||
        (!in_place_.empty() && in_place_.data() + in_place_.size() != text.data()))
        return false;
    in_place_ = std::string_view(in_place_.empty() ? text.data() : in_place_.data(), in_place_.size() + text.size());
    return true;
}

void Session::output_line(Stream stream, std::string_view line) {
    // The adapter passes on a line the supervisor handed it, in place in the read buffer with its
    // '\n' after it: no copy.
    const std::string_view with_newline(line.data(), line.size() + 1);
    if (in_read(with_newline) && line.data()[line.size()] == '\n' && keep_in_place(stream, with_newline)) return;
    hold(stream, line, true);
}

void Session::output_lines(Stream stream, std::string_view lines) {
    if (lines.empty()) return;
    if (in_read(lines) && keep_in_place(stream, lines)) return;
    hold(stream, lines);
}

void Session::hold_in_place() {
    if (in_place_.empty()) return;
    // (What held_output_ has came before in_place_: anything held after it first comes here.)
    held_stream_ = Stream::Stdout;
    held_output_.append(in_place_);
    in_place_ = {};
}

void Session::hold(Stream stream, std::string_view text, bool line) {
    hold_in_place();
    if (!held_output_.empty() && stream != held_stream_) flush_held();
    held_stream_ = stream;
    held_output_.append(text);
    if (line) held_output_.push_back('\n');
    output_added();
}

void Session::release_partial_lines() {
    for (Stream s : {Stream::Stdout, Stream::Stderr}) {
        std::string& partial = partial_[s == Stream::Stdout ? 0 : 1];
        if (partial.empty()) continue;
        std::string text = std::move(partial);
        partial.clear();
        hold(s, text);
    }
}

void Session::output_added() {
    if (held_output_.size() >= kOutputPiece) {
        flush_held();
    } else if (!flush_posted_) {
        flush_posted_ = true;
        boost::asio::post(io_, [this, token = lifetime_.token()] {
            if (!token) return;
            flush_posted_ = false;
            flush_held();
        });
    }
}

void Session::flush_output() {
    release_partial_lines();
    flush_held();
}

void Session::flush_held() {
    if (!in_place_.empty() && held_output_.empty()) {
        const std::string_view text = in_place_;
        in_place_ = {};
        if (hooks_.output) hooks_.output(Stream::Stdout, text);
        return;
    }
    hold_in_place();
    if (held_output_.empty()) return;
    if (!flushing_.empty()) {  // called again from inside the hook: this piece gets its own buffer
        std::string text = std::move(held_output_);
        held_output_.clear();
        if (hooks_.output) hooks_.output(held_stream_, text);
        return;
    }
    // The two buffers take turns, so a flood reuses their memory instead of allocating a piece
    // per flush.
    flushing_.swap(held_output_);
    held_output_.clear();
    if (hooks_.output) hooks_.output(held_stream_, flushing_);
    flushing_.clear();
}

void Session::send(std::string_view line) {
    std::string data;
    data.reserve(line.size() + 1);  // one allocation, not two
    data.append(line);
    data.push_back('\n');
    supervisor_->write(std::move(data));
}

void Session::close_input() { supervisor_->close_stdin(); }

void Session::after(std::chrono::milliseconds delay, std::function<void()> fn) {
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, delay);
    timer->async_wait([timer, token = lifetime_.token(), fn = std::move(fn)](const boost::system::error_code& ec) {
        if (!ec && token) fn();
    });
}

void Session::log(std::string_view message) {
    if (hooks_.log) hooks_.log(message);
}

}  // namespace askhost
