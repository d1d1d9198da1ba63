// One agent run: the supervisor, its adapter, and the broker the adapter asks through.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/supervisor.hpp"
#include "core/adapter.hpp"
#include "core/broker.hpp"
#include "core/lifetime.hpp"

namespace askhost {

class Session final : public AdapterHost {
public:
    struct Hooks {
        std::function<void(Stream, std::string_view)> output;
        std::function<void(std::string_view)> log;
        std::function<void(AgentExit)> exited;
        // Answers known before anyone is asked (--answers, an answered pending file): an outcome
        // to hand back at once, or nullopt to ask.
        std::function<std::optional<Outcome>(const Ask&)> pre_answer;
        AdapterSettings settings;  // handed to the adapter (--allow-tools)
        // How long a partial line (output after the last '\n') waits for its end before it goes on.
        std::chrono::milliseconds partial_line_wait{50};
    };

    Session(boost::asio::io_context& io, Broker& broker, const AdapterInfo& adapter, Profile profile, Hooks hooks);
    ~Session() override;

    std::optional<Error> start(const LaunchSpec& spec);
    bool prompt(std::string_view text);
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(3000));
    void kill_now();
    // The reader of the agent's output is behind: stop reading it for now (see Supervisor).
    void pause_output();
    void resume_output();
    // End of input for the agent, a moment to finish, then stop(): for a host that is leaving.
    void finish_then_stop();
    bool running() const;
    int pid() const;
    const std::string& agent_name() const { return agent_name_; }
    std::string_view adapter_name() const { return adapter_->name(); }

    // AdapterHost
    AskTicket ask(AskInput input, OnOutcome reply) override;
    void output(Stream stream, std::string_view text) override;
    void output_line(Stream stream, std::string_view line) override;
    void output_lines(Stream stream, std::string_view lines) override;
    void send(std::string_view line) override;
    Profile profile() const override { return profile_; }
    void log(std::string_view message) override;
    void close_input() override;
    void after(std::chrono::milliseconds delay, std::function<void()> fn) override;
    const AdapterSettings& settings() const override { return hooks_.settings; }
    std::string working_directory() const override { return working_directory_; }

private:
    boost::asio::io_context& io_;
    Broker& broker_;
    Profile profile_;
    Hooks hooks_;
    std::string agent_name_;
    std::string working_directory_;
    std::vector<std::weak_ptr<AskSlot>> asked_;  // the adapter's asks: withdrawn when the agent exits
    std::unique_ptr<Supervisor> supervisor_;
    std::unique_ptr<AgentAdapter> adapter_;
    // Output of one turn of the loop, passed on as one piece, in whole lines (see output()).
    void flush_output();  // all that is held, partial lines too
    void flush_held();    // the whole lines held
    void hold(Stream stream, std::string_view text, bool line = false);
    void hold_in_place();  // in_place_ copied into held_output_
    void release_partial_lines();
    void output_added();
    std::string partial_[2];  // stdout, stderr: after the last '\n', waiting for the rest of the line
    bool partial_wait_armed_ = false;
    static constexpr std::size_t kOutputPiece = 1u << 20;  // the most output held before it goes on
    // Whole stdout lines held where they lie in the supervisor's read buffer, after what
    // held_output_ has (stdout too): they go on at the read's end, copied once, into their
    // agent/output, not a line at a time into held_output_ first.
    std::string_view in_place_;
    std::string_view read_lines_;               // the line(s) the adapter is handling, with '\n', when in place
    bool in_read(std::string_view text) const;  // text lies inside read_lines_
    bool keep_in_place(Stream stream, std::string_view text);  // text (in_read) added to in_place_ if it can be
    std::string held_output_;
    std::string flushing_;  // held_output_'s previous buffer, kept for its capacity
    Stream held_stream_ = Stream::Stdout;
    bool flush_posted_ = false;
    Lifetime lifetime_;  // last: posted flushes and timers see it end first
};

}  // namespace askhost
