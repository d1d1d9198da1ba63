// The native agent protocol: ask_user_request / ask_user_response, one JSON object per line.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "common/message_table.hpp"
#include "common/tool_input.hpp"
#include "core/adapter.hpp"
#include "core/pending_asks.hpp"
#include "core/text/ascii.hpp"
#include "json/json_access.hpp"
#include "native_protocol.hpp"

namespace askhost {
namespace {

std::string_view ltrim(std::string_view s) { return ascii::trim_start(s, " \t\r"); }

class NativeAdapter final : public AgentAdapter {
public:
    explicit NativeAdapter(AdapterHost& host) : host_(host), open_(host) {
        messages_
            .on<native::Request>(native::kRequest,
                                 [this](const native::Request& r, rapidjson::Document& doc) { on_request(r, doc); })
            .on<native::Cancel>(native::kCancel, [this](const native::Cancel& c) { on_cancel(c); });
    }

    std::string_view name() const override { return "native"; }

    void on_line(std::string_view line) override {
        if (!looks_like_message(line)) return pass_on(line);
        // The message's values in a buffer on the stack: no 64 KiB heap chunk per message.
        char pool_buffer[8192];
        rapidjson::MemoryPoolAllocator<> pool(pool_buffer, sizeof pool_buffer);
        rapidjson::Document doc(&pool, 1024, json::stack_allocator());
        // Not a protocol message after all (no JSON, no known type): it is the agent's output.
        if (json::parse(doc, line, json::no_depth_limit) || messages_.dispatch(doc) != Dispatch::Handled) pass_on(line);
    }

    // A read's lines at once: only a line with "type" in it can be a message, so the lines before
    // the next such line go on as they are, in one piece (a flood is searched, not split).
    void on_lines(std::string_view lines) override {
        while (!lines.empty()) {
            const auto hit = lines.find(kTypeKey);
            if (hit == std::string_view::npos) return host_.output_lines(Stream::Stdout, lines);
            const auto before = lines.rfind('\n', hit);
            const std::size_t start = before == std::string_view::npos ? 0 : before + 1;
            if (start > 0) host_.output_lines(Stream::Stdout, lines.substr(0, start));
            const auto end = lines.find('\n', hit);  // lines ends with one
            on_line(lines.substr(start, end - start));
            lines.remove_prefix(end + 1);
        }
    }

    void finished() override { open_.take_all(); }

private:
    static constexpr std::string_view kTypeKey = "\"type\"";

    // Cheap check first: most output lines are not JSON at all.
    static bool looks_like_message(std::string_view line) {
        line = ltrim(line);
        return !line.empty() && line.front() == '{' && line.find(kTypeKey) != std::string_view::npos;
    }

    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    void respond(const native::RequestId& id, const Outcome& outcome) {
        host_.send(json::to_text(native::Response{id, outcome}));
    }

    void on_request(const native::Request& r, rapidjson::Document& doc) {
        const std::string& id = r.request_id.json;
        if (id.empty()) {
            host_.log("native adapter: ask_user_request without a string or number requestId");
            return respond(r.request_id, Outcome::refused({"invalid_request", "requestId",
                                                           "requestId: required, a string or a number"}));
        }
        if (open_.contains(id))
            return respond(r.request_id, Outcome::refused({"invalid_request", "requestId",
                                                           "requestId: " + id + " is already waiting for an answer"}));
        // REQ-AUQ-005: a sub-agent runs on its own; it must not block on the user.
        if (r.subagent) return respond(r.request_id, Outcome::refused({"subagent", "subagent", kSubagentRefusal}));
        // A member the protocol does not know is the agent meaning something askhost would drop.
        if (auto unknown = unknown_member(doc)) return respond(r.request_id, Outcome::refused(*unknown));
        // Only the tool's own fields are checked against the profile, not the envelope's. Refused,
        // or the agent already knows the answers: handed back without showing anything.
        ask_tool_input(open_, id, take_tool_ask_input(doc, host_.profile(), true), {},
                       [this, rid = r.request_id](const Outcome& o, std::monostate) { respond(rid, o); });
    }

    static std::optional<Refusal> unknown_member(const rapidjson::Value& doc) {
        static constexpr std::array<std::string_view, 8> kKnown = {
            "type", "requestId", "subagent", "questions", "metadata", "answers", "annotations", "permission"};
        for (auto m = doc.MemberBegin(); m != doc.MemberEnd(); ++m) {
            const std::string_view key(m->name.GetString(), m->name.GetStringLength());
            if (std::find(kKnown.begin(), kKnown.end(), key) != kKnown.end()) continue;
            const std::string shown = key.size() > 60 ? std::string(key.substr(0, 60)) + "..." : std::string(key);
            return Refusal{"invalid_schema", shown, shown + ": unknown field"};
        }
        return std::nullopt;
    }

    void on_cancel(const native::Cancel& c) { open_.take(c.request_id.json); }

    AdapterHost& host_;
    PendingAsks<> open_;  // by requestId (as JSON)
    MessageTable messages_;
};

}  // namespace

void register_native_adapter(AdapterRegistry& registry) {
    registry.add(
        {"native",
         "askhost's own JSON-lines protocol (ask_user_request / ask_user_response)",
         Profile::Lenient,
         [](AdapterHost& host) -> std::unique_ptr<AgentAdapter> { return std::make_unique<NativeAdapter>(host); },
         nullptr,
         nullptr,
         {}});
}

}  // namespace askhost
