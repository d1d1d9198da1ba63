// The mcp adapter: for agents that reach askhost through `askhost mcp` (Codex, Gemini CLI, Claude
// Code's MCP route). Their stdout is not a protocol: every line is output, passed on untouched.
#include <string>
#include <vector>

#include "core/adapter.hpp"

namespace askhost {

namespace {

class McpAdapter final : public AgentAdapter {
public:
    explicit McpAdapter(AdapterHost& host) : host_(host) {}
    std::string_view name() const override { return "mcp"; }
    // Nothing is ever written to such an agent; an open stdin makes some wait for more input
    // (`codex exec` reads a prompt from a pipe).
    void started() override { host_.close_input(); }
    void on_line(std::string_view line) override { host_.output_line(Stream::Stdout, line); }

private:
    AdapterHost& host_;
};

}  // namespace

namespace mcp {
// `askhost mcp` (mcp_command.cpp): its declaration and what runs it.
extern const cli::Command kMcpCommand;
int run_mcp(const std::vector<std::string>& args);
// `askhost codex-hook` (plugins/codex/codex_hook.cpp): Codex's SessionStart hook after a compaction.
extern const cli::Command kCodexHookCommand;
int run_codex_hook(const std::vector<std::string>& args);
// `askhost gemini-hook` (plugins/gemini/gemini_hook.cpp): Gemini CLI's BeforeAgent hook, for its compression.
extern const cli::Command kGeminiHookCommand;
int run_gemini_hook(const std::vector<std::string>& args);
}  // namespace mcp

void register_mcp_adapter(AdapterRegistry& registry) {
    registry.add(adapter_info<McpAdapter>(
        "mcp", "agents that ask through `askhost mcp` (Codex, any MCP client): output passed on", Profile::Strict,
        detects_program("codex"),
        {{&mcp::kMcpCommand, mcp::run_mcp},
         {&mcp::kCodexHookCommand, mcp::run_codex_hook},
         {&mcp::kGeminiHookCommand, mcp::run_gemini_hook}}));
}

}  // namespace askhost
