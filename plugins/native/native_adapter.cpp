// The native agent protocol: ask_user_request / ask_user_response, one JSON object per line.
#include <memory>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "common/pending_asks.hpp"
#include "common/tool_input.hpp"
#include "core/adapter.hpp"
#include "json/json_access.hpp"

namespace askhost {
namespace {

constexpr std::string_view kRequest = "ask_user_request";
constexpr std::string_view kCancel = "ask_user_cancel";

std::string_view ltrim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    return s;
}

class NativeAdapter final : public AgentAdapter {
public:
    explicit NativeAdapter(AdapterHost& host) : host_(host), open_(host) {}

    std::string_view name() const override { return "native"; }

    void on_line(std::string_view line) override {
        if (!looks_like_message(line)) {
            pass_on(line);
            return;
        }
        rapidjson::Document doc;
        if (json::parse(doc, line, json::no_depth_limit) || !json::is_object(doc)) {
            pass_on(line);  // not a protocol message after all: it is the agent's output
            return;
        }
        auto type = doc.FindMember("type");
        if (type == doc.MemberEnd() || !type->value.IsString()) {
            pass_on(line);
            return;
        }
        std::string_view t(type->value.GetString(), type->value.GetStringLength());
        if (t == kRequest) handle_request(doc);
        else if (t == kCancel) handle_cancel(doc);
        else pass_on(line);
    }

    void finished() override { open_.take_all(); }

private:
    // Cheap check first: most output lines are not JSON at all.
    static bool looks_like_message(std::string_view line) {
        line = ltrim(line);
        return !line.empty() && line.front() == '{' && line.find("\"type\"") != std::string_view::npos;
    }

    void pass_on(std::string_view line) { host_.output_line(Stream::Stdout, line); }

    // The requestId is echoed back as given: a string, or a number.
    static std::string request_id_json(const rapidjson::Value& doc) {
        auto it = doc.FindMember("requestId");
        if (it == doc.MemberEnd()) return {};
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        if (it->value.IsString() || json::is_number(it->value)) json::write(it->value, w);
        return buf.GetString();
    }

    void respond(const std::string& id_json, const Outcome& outcome) {
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        w.StartObject();
        w.Key("type");
        w.String("ask_user_response");
        w.Key("requestId");
        if (id_json.empty()) w.Null();
        else w.RawValue(id_json.data(), id_json.size(), rapidjson::kStringType);
        write_native_result(w, outcome);
        w.EndObject();
        host_.send(std::string_view(buf.GetString(), buf.GetSize()));
    }

    void handle_request(rapidjson::Document& doc) {
        const std::string id = request_id_json(doc);
        if (id.empty()) {
            host_.log("native adapter: ask_user_request without a string or number requestId");
            respond(id,
                    Outcome::refused({"invalid_request", "requestId", "requestId: required, a string or a number"}));
            return;
        }
        if (open_.contains(id)) {
            respond(id, Outcome::refused({"invalid_request", "requestId",
                                          "requestId: " + id + " is already waiting for an answer"}));
            return;
        }
        auto sub = doc.FindMember("subagent");
        if (sub != doc.MemberEnd() && sub->value.IsBool() && sub->value.GetBool()) {
            // REQ-AUQ-005: a sub-agent runs on its own; it must not block on the user.
            respond(id, Outcome::refused({"subagent", "subagent", kSubagentRefusal}));
            return;
        }
        // Only the tool's own fields are checked against the profile, not the envelope's. Refused,
        // or the agent already knows the answers: handed back without showing anything.
        ask_tool_input(open_, id, take_tool_ask_input(doc, host_.profile()), {},
                       [this, id](const Outcome& o, std::monostate) { respond(id, o); });
    }

    void handle_cancel(const rapidjson::Document& doc) { open_.take(request_id_json(doc)); }

    AdapterHost& host_;
    PendingAsks<> open_;  // by requestId (as JSON)
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
