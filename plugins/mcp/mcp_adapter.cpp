// The mcp adapter: for agents that reach askhost through `askhost mcp` (Codex, Gemini CLI, Claude
// Code's MCP route). Their stdout is not a protocol: every line is output, passed on untouched.
#include <string>
#include <vector>

#include "adapter.hpp"

namespace askhost {

namespace mcp {
int run_mcp(const std::vector<std::string>& args);
}

namespace {

class McpAdapter final : public AgentAdapter {
public:
    explicit McpAdapter(AdapterHost& host) : host_(host) {}
    std::string_view name() const override { return "mcp"; }
    // Nothing is ever written to such an agent; an open stdin makes some wait for more input
    // (`codex exec` reads a prompt from a pipe).
    void started() override { host_.close_input(); }
    void on_line(std::string_view line) override {
        std::string out(line);
        out.push_back('\n');
        host_.output(Stream::Stdout, out);
    }

private:
    AdapterHost& host_;
};

std::string program_name(const std::vector<std::string>& argv) {
    if (argv.empty()) return {};
    auto slash = argv[0].find_last_of('/');
    return slash == std::string::npos ? argv[0] : argv[0].substr(slash + 1);
}

}  // namespace

void register_mcp_adapter(AdapterRegistry& registry) {
    AdapterInfo info;
    info.name = "mcp";
    info.summary = "agents that ask through `askhost mcp` (Codex, any MCP client): output passed on";
    info.default_profile = Profile::Strict;
    info.create = [](AdapterHost& host) -> std::unique_ptr<AgentAdapter> { return std::make_unique<McpAdapter>(host); };
    info.detects = [](const std::vector<std::string>& argv) {
        auto name = program_name(argv);
        return name == "codex";
    };
    info.command = mcp::run_mcp;
    registry.add(std::move(info));
}

}  // namespace askhost
