// The error codes of JSON-RPC 2.0 and of askhost's editor protocol: their one definition. The
// Neovim bridge (lua/askhost/rpc.lua) and the VS Code bridge (src/client.ts) copy the ones they
// use from here; docs/protocol.md lists them for people. MCP uses these base codes and no others.
#pragma once

namespace askhost::rpc_error {

// JSON-RPC 2.0.
constexpr int parse_error = -32700;
constexpr int invalid_request = -32600;  // also a frame that cannot be read
constexpr int method_not_found = -32601;
constexpr int invalid_params = -32602;
constexpr int internal_error = -32603;

// The LSP codes the editor protocol keeps.
constexpr int server_not_initialized = -32002;
constexpr int request_cancelled = -32800;

// The editor protocol's own: the agent is not running, cannot start, or has no conversation.
constexpr int agent_error = -32001;

}  // namespace askhost::rpc_error
