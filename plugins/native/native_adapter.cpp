// The native agent protocol: ask_user_request / ask_user_response, one JSON object per line.
#include <map>
#include <memory>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

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
    explicit NativeAdapter(AdapterHost& host) : host_(host) {}
    ~NativeAdapter() override { *alive_ = false; }

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

    void finished() override { open_.clear(); }

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
            respond(id, Outcome::refused({"invalid_request", "requestId",
                                          "requestId: required, a string or a number"}));
            return;
        }
        if (open_.count(id)) {
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
        // Only the tool's own fields are checked against the profile, not the envelope's. They are
        // moved, not copied: a copy recurses as deep as the agent nested them; doc outlives tool.
        rapidjson::Document tool(rapidjson::kObjectType);
        for (const char* key : {"questions", "metadata", "answers", "annotations"}) {
            auto it = doc.FindMember(key);
            if (it == doc.MemberEnd()) continue;
            rapidjson::Value name(key, tool.GetAllocator());
            tool.AddMember(name, it->value, tool.GetAllocator());
        }
        auto parsed = parse_ask_input(tool, host_.profile());
        // Refused, or the agent already knows the answers: hand them back without showing anything.
        if (auto now = outcome_without_asking(parsed)) {
            respond(id, *now);
            return;
        }
        auto input = std::get<AskInput>(std::move(parsed));
        open_[id] = {};
        std::string ask_id = host_.ask(std::move(input), [this, id, a = alive_](Outcome o) {
            if (!*a) return;
            open_.erase(id);
            respond(id, o);
        });
        auto it = open_.find(id);
        if (it != open_.end()) it->second = ask_id;
    }

    void handle_cancel(const rapidjson::Document& doc) {
        const std::string id = request_id_json(doc);
        auto it = open_.find(id);
        if (it == open_.end()) return;
        std::string ask_id = it->second;
        open_.erase(it);
        host_.withdraw(ask_id);
    }

    AdapterHost& host_;
    std::map<std::string, std::string> open_;  // requestId (as JSON) -> ask id
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace

void register_native_adapter(AdapterRegistry& registry) {
    registry.add({"native", "askhost's own JSON-lines protocol (ask_user_request / ask_user_response)",
                  Profile::Lenient,
                  [](AdapterHost& host) -> std::unique_ptr<AgentAdapter> {
                      return std::make_unique<NativeAdapter>(host);
                  },
                  nullptr, nullptr, {}});
}

}  // namespace askhost
