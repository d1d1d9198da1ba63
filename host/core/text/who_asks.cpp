#include "core/text/who_asks.hpp"

namespace askhost {

std::string who_asks(std::string_view agent, std::string_view route) {
    std::string who = agent.empty() ? std::string("agent") : std::string(agent);
    if (route.empty() || route == "agent") return who;
    who += " · ";
    if (route == "mcp") who += "MCP";
    else if (route == "submit") who += "client";
    else who += route;  // "hook", and routes of other programs as they name them
    return who;
}

}  // namespace askhost
