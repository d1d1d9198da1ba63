// Agent adapters: one agent protocol each, turning its messages into asks and outcomes back.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ask_ticket.hpp"
#include "core/command_line.hpp"
#include "core/model/outcome.hpp"

namespace askhost {

enum class Stream { Stdout, Stderr };

// What the person told askhost about the agent's other requests (the command line).
struct AdapterSettings {
    std::vector<std::string> allow_tools;  // --allow-tools: tool permissions granted without asking
    // No editor can send another prompt (not --stdio): a conversational agent may end after its turn.
    bool one_shot = false;
};

// What an adapter may reach: the broker (through ask and its tickets), the output sink and the
// agent. The host owns the adapter: the adapter never outlives it.
class AdapterHost {
public:
    virtual ~AdapterHost() = default;

    // Ask the person. `reply` runs exactly once, on a later turn of the loop (never from inside
    // ask), unless the ticket is cancelled or destroyed first: that withdraws the ask (e.g. the
    // agent cancelled the request itself).
    virtual AskTicket ask(AskInput input, OnOutcome reply) = 0;
    // Agent output that is not part of the protocol: passed on untouched.
    virtual void output(Stream stream, std::string_view text) = 0;
    // One line of such output, without its '\n' (which this adds).
    virtual void output_line(Stream stream, std::string_view line) {
        std::string text(line);
        text.push_back('\n');
        output(stream, text);
    }
    // Whole lines of such output, each with its '\n' (the last byte of `lines` is one).
    virtual void output_lines(Stream stream, std::string_view lines) { output(stream, lines); }
    // One protocol line to the agent's stdin; a '\n' is appended.
    virtual void send(std::string_view line) = 0;
    // The validation profile the agent's questions are checked against.
    virtual Profile profile() const = 0;
    // A human-readable diagnostic from the adapter (goes to stderr or the editor's log).
    virtual void log(std::string_view message) = 0;
    // Close the agent's stdin (a one-shot conversation is over: the agent may exit).
    virtual void close_input() {}
    // Run `fn` on the event loop after `delay` (e.g. a dialog's own timeout); never once the host
    // (and so its adapter) is gone.
    // NOLINTNEXTLINE(performance-unnecessary-value-param): an override keeps `fn`, this one drops it
    virtual void after(std::chrono::milliseconds /*delay*/, std::function<void()> /*fn*/) {}
    // The agent's working directory, absolute ("" when unknown: askhost's own).
    virtual std::string working_directory() const { return {}; }
    virtual const AdapterSettings& settings() const {
        static const AdapterSettings none;
        return none;
    }
};

class AgentAdapter {
public:
    virtual ~AgentAdapter() = default;
    virtual std::string_view name() const = 0;
    // The agent is about to be launched with `argv`: add the flags of the adapter's channel, or
    // take out what goes over it instead (e.g. a prompt that becomes the first user message).
    virtual void launching(std::vector<std::string>& /*argv*/) {}
    // The agent process is running; send any handshake now.
    virtual void started() {}
    // One line of the agent's stdout, without its '\n'.
    virtual void on_line(std::string_view line) = 0;
    // Several whole lines of the agent's stdout, each with its '\n' (a flood comes this way, a
    // read's lines at once). Handed to on_line one by one unless the adapter can do better
    // (e.g. pass on at once the lines that cannot be protocol messages).
    virtual void on_lines(std::string_view lines) {
        while (!lines.empty()) {
            const auto nl = lines.find('\n');
            on_line(lines.substr(0, nl));
            if (nl == std::string_view::npos) return;
            lines.remove_prefix(nl + 1);
        }
    }
    // A user message for the agent (agent/prompt). false: this protocol has no conversation.
    virtual bool prompt(std::string_view /*text*/) { return false; }
    // agent/stop (or a signal): the agent is about to be stopped; ask it to wind down politely.
    virtual void stopping() {}
    // The agent's stdout closed (it exited or is exiting).
    virtual void finished() {}
};

// The program's name in an argv[0]: what follows its last '/' (how adapters recognise an agent).
std::string program_name(std::string_view argv0);

// An AdapterInfo::detects that recognises the agent by its program name (argv[0] after its last '/').
std::function<bool(const std::vector<std::string>& argv)> detects_program(std::string name);

struct AdapterInfo {
    std::string name;
    std::string summary;
    Profile default_profile = Profile::Lenient;  // unless --profile says otherwise
    std::function<std::unique_ptr<AgentAdapter>(AdapterHost&)> create;
    // Whether this adapter recognises the agent from its argv (e.g. the program name).
    std::function<bool(const std::vector<std::string>& argv)> detects;
    // The argv actually launched (e.g. the flags that put the agent on its control channel).
    std::function<std::vector<std::string>(std::vector<std::string> argv)> prepare_argv;
    // Subcommands this plugin serves, `askhost NAME ARGS...` (askhost mcp, askhost hook).
    using Commands = std::vector<cli::Subcommand>;
    Commands commands;
};

// The AdapterInfo of the adapter class Adapter (made from the AdapterHost), with the subcommands
// its plugin serves; the caller adds any prepare_argv.
template <typename Adapter>
AdapterInfo adapter_info(std::string name, std::string summary, Profile default_profile,
                         std::function<bool(const std::vector<std::string>& argv)> detects,
                         AdapterInfo::Commands commands = {}) {
    AdapterInfo info;
    info.name = std::move(name);
    info.summary = std::move(summary);
    info.default_profile = default_profile;
    info.create = [](AdapterHost& host) -> std::unique_ptr<AgentAdapter> { return std::make_unique<Adapter>(host); };
    info.detects = std::move(detects);
    info.commands = std::move(commands);
    return info;
}

class AdapterRegistry {
public:
    void add(AdapterInfo info);
    const AdapterInfo* find(std::string_view name) const;
    // The first adapter that recognises argv, else the one named `fallback`.
    const AdapterInfo* detect(const std::vector<std::string>& argv, std::string_view fallback) const;
    const std::vector<AdapterInfo>& all() const { return adapters_; }
    // The subcommand NAME of whichever plugin serves it, or null.
    const cli::Subcommand* command(std::string_view name) const;

private:
    std::vector<AdapterInfo> adapters_;
};

// Generated at build time: registers every adapter chosen in meson_options.txt.
void register_builtin_adapters(AdapterRegistry& registry);

}  // namespace askhost
