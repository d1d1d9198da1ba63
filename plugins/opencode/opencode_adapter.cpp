// The opencode adapter: OpenCode run by askhost (`askhost -- opencode run "..."`). Its output is
// passed on untouched; its questions come through askhost's OpenCode plugin (`askhost opencode
// install`), which finds this host through $ASKHOST_SOCKET. docs/opencode.md.
#include <string>
#include <vector>

#include "core/adapter.hpp"

namespace askhost {

namespace {

class OpencodeAdapter final : public AgentAdapter {
public:
    explicit OpencodeAdapter(AdapterHost& host) : host_(host) {}
    std::string_view name() const override { return "opencode"; }
    // `opencode run` reads a prompt from a stdin that is not a terminal: it gets none.
    void started() override { host_.close_input(); }
    void on_line(std::string_view line) override { host_.output_line(Stream::Stdout, line); }

private:
    AdapterHost& host_;
};

}  // namespace

namespace opencode {
// `askhost opencode` (opencode_command.cpp): the plugin's install, and its ask.
extern const cli::Command kOpencodeCommand;
int run_opencode(const std::vector<std::string>& args);
}  // namespace opencode

void register_opencode_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<OpencodeAdapter>(
        "opencode", "OpenCode: output passed on; its questions come through askhost's plugin", Profile::Lenient,
        detects_program("opencode"), {{&opencode::kOpencodeCommand, opencode::run_opencode}}));
}

}  // namespace askhost
