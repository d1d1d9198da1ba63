// The agent process: launched with argv (never a shell string) in its own process group,
// its three pipes on the event loop, stopped with SIGTERM then SIGKILL.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/agent_control.hpp"
#include "core/error.hpp"

namespace askhost {

class Supervisor {
public:
    struct Callbacks {
        // Without the '\n'. in_place: the line and its '\n' lie in the read buffer, valid until
        // on_stdout_read_end (a line assembled over several reads is not in place).
        std::function<void(std::string_view line, bool in_place)> on_stdout_line;
        // When set, the whole lines of a read that lie in the read buffer come here at once instead
        // of a line at a time: each ends with its '\n' (included), valid until on_stdout_read_end.
        std::function<void(std::string_view lines)> on_stdout_lines;
        std::function<void()> on_stdout_read_end;                  // the lines of one read were all handed on
        std::function<void(std::string_view data)> on_stdout_raw;  // a line beyond the cap, in pieces
        std::function<void(std::string_view data)> on_stderr;
        std::function<void()> on_stdout_closed;
        std::function<void(AgentExit)> on_exit;  // after both outputs closed and the process reaped
    };

    // The longest line handed to an adapter; longer ones are passed on as raw output.
    static constexpr std::size_t max_line_bytes = std::size_t{16} * 1024 * 1024;

    Supervisor(boost::asio::io_context& io, Callbacks callbacks);
    ~Supervisor();
    Supervisor(const Supervisor&) = delete;
    Supervisor& operator=(const Supervisor&) = delete;

    // nullopt on success, else why the agent could not be started (NotFound, CannotRun, Failed).
    std::optional<Error> start(const LaunchSpec& spec);
    // Queue bytes for the agent's stdin (written in order, never blocking).
    void write(std::string data);
    void close_stdin();
    // Stop reading the agent's output after the reads under way (its pipes fill up and it waits,
    // as it would on a slow terminal), and read on. For a reader that fell behind.
    void pause_output();
    void resume_output();
    // SIGTERM to the agent's process group, SIGKILL after `grace`.
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(3000));
    // Close the agent's stdin and give it `wait` to finish on its own (it may still be reading
    // its last answer), then stop(grace).
    void finish_then_stop(std::chrono::milliseconds wait = std::chrono::milliseconds(1000),
                          std::chrono::milliseconds grace = std::chrono::milliseconds(3000));
    // SIGKILL to the group at once (askhost itself is going away).
    void kill_now();

    bool running() const;
    int pid() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace askhost
