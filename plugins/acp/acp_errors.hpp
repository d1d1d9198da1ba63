// The error codes the Agent Client Protocol adds to JSON-RPC's (transport/rpc_errors.hpp): their
// one definition in askhost.
#pragma once

namespace askhost::acp_error {

constexpr int auth_required = -32000;       // the agent wants its user to log in first
constexpr int resource_not_found = -32002;  // fs/read_text_file of a file that is not there

}  // namespace askhost::acp_error
