// How every face names who asks (docs/protocol.md, "Questions"): the host says it in ask/show's
// `who`, and the faces show that; tests/text/who_asks.json holds the rule.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// The agent ("agent" when it has no name), then how its question came when not from the agent
// askhost runs itself: "codex · MCP", "claude · hook", "pi · client"; a route askhost does not
// know as it came ("opencode · plugin"); "" and "agent" add nothing ("demo-agent").
std::string who_asks(std::string_view agent, std::string_view route);

}  // namespace askhost
