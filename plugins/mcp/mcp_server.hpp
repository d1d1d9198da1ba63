// `askhost mcp`: an MCP server (JSON-RPC 2.0 over newline-delimited stdio) with one tool,
// ask_user_question. It knows MCP, not where the person is: an McpAsker shows the questions.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "model/outcome.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost::mcp {

constexpr std::string_view kToolName = "ask_user_question";
constexpr std::string_view kToolAlias = "AskUserQuestion";  // the reference implementation's alias
// Newest first; a client asking for another version gets the newest.
constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

// The version to answer an initialize with.
std::string negotiate_version(std::string_view requested);
// The tools/list result: {"tools":[{name, title, description, inputSchema, annotations}]}.
std::string tools_list_json();
// The tool's description, as a model reads it.
std::string_view tool_description();
// The tools/call result for an outcome: text content with the model text, structuredContent
// {answers, annotations?}; a cancel (and every other unanswered end) is isError with
// "User declined to answer questions (...)"; a refusal is isError naming the field. A result
// over Limits::max_result_bytes is replaced by an error saying so.
std::string tool_result_json(const Outcome& outcome);

// Shows one ask to the person somewhere (the host over its socket, a terminal, the pending file).
class McpAsker {
public:
    using Reply = std::function<void(Outcome)>;
    virtual ~McpAsker() = default;
    // `reply` runs exactly once unless the returned cancel function is called first.
    virtual std::function<void()> ask(Ask ask, Reply reply) = 0;
};

class McpServer {
public:
    using Log = std::function<void(std::string_view)>;
    McpServer(RpcEndpoint& rpc, McpAsker& asker, Log log);
    ~McpServer();

    // The client went away: withdraw every question still open.
    void close();
    std::size_t open_calls() const { return open_.size(); }

private:
    void on_request(std::string_view method, const rapidjson::Value& params, Responder r);
    void on_notify(std::string_view method, const rapidjson::Value& params);
    void call_tool(const rapidjson::Value& params, Responder r);

    RpcEndpoint& rpc_;
    McpAsker& asker_;
    Log log_;
    std::string client_name_ = "mcp client";
    std::map<std::string, std::function<void()>> open_;  // tools/call request id (JSON) -> cancel
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace askhost::mcp
