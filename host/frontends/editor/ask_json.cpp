#include "frontends/editor/ask_json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "json/json_access.hpp"

namespace askhost {

namespace {

bool flag(const rapidjson::Value& obj, const char* key, bool fallback) {
    if (!obj.IsObject()) return fallback;
    auto it = obj.FindMember(key);
    return it != obj.MemberEnd() && it->value.IsBool() ? it->value.GetBool() : fallback;
}

void write_str(JsonWriter& w, const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

}  // namespace

ClientAskCaps parse_client_caps(const rapidjson::Value& capabilities) {
    ClientAskCaps caps;
    if (!capabilities.IsObject()) return caps;
    auto ask = capabilities.FindMember("ask");
    if (ask == capabilities.MemberEnd() || !ask->value.IsObject()) return caps;
    caps.multi_select = flag(ask->value, "multiSelect", true);
    caps.previews = flag(ask->value, "previews", true);
    caps.notes = flag(ask->value, "notes", true);
    return caps;
}

void write_ask_members(JsonWriter& w, const Ask& ask, const ClientAskCaps& caps) {
    write_str(w, "id", ask.id);
    json::write_objects(w, "questions", ask.questions, [&](const Question& q) {
        write_str(w, "question", q.question);
        if (!q.header.empty()) write_str(w, "header", q.header);
        json::write_objects(w, "options", q.options, [&](const Option& o) {
            write_str(w, "label", o.label);
            if (!o.description.empty()) write_str(w, "description", o.description);
            if (o.preview && caps.previews) write_str(w, "preview", *o.preview);
        });
        w.Key("multiSelect");
        w.Bool(q.multi_select && caps.multi_select);
    });
    if (!ask.metadata_json.empty()) {
        w.Key("metadata");
        w.RawValue(ask.metadata_json.data(), ask.metadata_json.size(), rapidjson::kObjectType);
    }
    write_str(w, "agent", ask.agent);
    if (!ask.client.empty()) write_str(w, "client", ask.client);
    write_str(w, "route", ask.route.empty() ? std::string("agent") : ask.route);
    if (!ask.cwd.empty()) write_str(w, "cwd", ask.cwd);
}

std::string ask_show_params(const Ask& ask, const ClientAskCaps& caps) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_ask_members(w, ask, caps);
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

std::string ask_state_params(const std::vector<const Ask*>& pending) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("state");
    w.String(pending.empty() ? "idle" : "waiting");
    w.Key("pending");
    w.StartArray();
    for (const Ask* a : pending) {
        w.StartObject();
        write_ask_members(w, *a, ClientAskCaps{});
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

std::string outcome_json(const Outcome& outcome) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_native_result(w, outcome);
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

Parsed<Outcome> parse_client_outcome(const rapidjson::Value& result, const Ask& ask) {
    auto bad = [](const std::string& path, const std::string& why) -> Parsed<Outcome> {
        return Refusal{"invalid_result", path, path + ": " + why};
    };
    if (!result.IsObject()) return bad("result", "expected an object");
    auto answered = result.FindMember("answered");
    if (answered == result.MemberEnd() || !answered->value.IsBool())
        return bad("result.answered", "expected a boolean");
    if (!answered->value.GetBool()) {
        if (flag(result, "timedOut", false)) return Outcome::timed_out();
        std::string reason;
        auto r = result.FindMember("reason");
        if (r != result.MemberEnd() && r->value.IsString()) reason = r->value.GetString();
        return Outcome::cancelled(reason);
    }
    auto answers = result.FindMember("answers");
    if (answers == result.MemberEnd() || !answers->value.IsArray()) return bad("result.answers", "expected an array");
    std::vector<std::optional<Answer>> by_question(ask.questions.size());
    rapidjson::SizeType i = 0;
    for (const auto& a : answers->value.GetArray()) {
        std::string path = "result.answers[" + std::to_string(i++) + "]";
        if (!a.IsObject()) return bad(path, "expected an object");
        auto q = a.FindMember("question");
        if (q == a.MemberEnd() || !q->value.IsString()) return bad(path + ".question", "expected a string");
        std::string qtext = q->value.GetString();
        std::size_t index = ask.questions.size();
        for (std::size_t k = 0; k < ask.questions.size(); ++k)
            if (ask.questions[k].question == qtext) index = k;
        if (index == ask.questions.size()) return bad(path + ".question", "no such question \"" + qtext + "\"");
        if (by_question[index]) return bad(path + ".question", "answered twice");
        const Question& question = ask.questions[index];
        Answer out;
        out.question = qtext;
        auto v = a.FindMember("answer");
        if (v == a.MemberEnd()) return bad(path + ".answer", "missing");
        if (v->value.IsString()) {
            out.values.push_back(v->value.GetString());
        } else if (v->value.IsArray()) {
            for (const auto& s : v->value.GetArray()) {
                if (!s.IsString()) return bad(path + ".answer", "expected strings");
                out.values.push_back(s.GetString());
            }
            out.multi = true;
        } else {
            return bad(path + ".answer", "expected a string or an array of strings");
        }
        if (out.values.empty() || (out.values.size() == 1 && out.values[0].empty()))
            return bad(path + ".answer", "empty: an answer that says nothing is not an answer");
        // A multi-select question shown as a plain list still answers as an array.
        if (question.multi_select) out.multi = true;
        else if (out.values.size() > 1) return bad(path + ".answer", "several values for a single-choice question");
        auto sel = a.FindMember("selectedOption");
        if (sel != a.MemberEnd() && sel->value.IsString()) out.selected_option = sel->value.GetString();
        out.was_custom = flag(a, "wasCustom", false);
        if (!out.selected_option && !out.multi && !out.was_custom) {
            bool is_label = false;
            for (const auto& o : question.options) is_label |= o.label == out.values[0];
            if (is_label) out.selected_option = out.values[0];
            else out.was_custom = true;
        }
        auto notes = a.FindMember("notes");
        if (notes != a.MemberEnd() && notes->value.IsString()) out.notes = notes->value.GetString();
        auto preview = a.FindMember("preview");
        if (preview != a.MemberEnd() && preview->value.IsString()) out.preview = preview->value.GetString();
        by_question[index] = std::move(out);
    }
    std::vector<Answer> ordered;
    for (std::size_t k = 0; k < by_question.size(); ++k) {
        if (!by_question[k])
            return bad("result.answers",
                       "question " + std::to_string(k + 1) + " (\"" + ask.questions[k].question + "\") has no answer");
        ordered.push_back(std::move(*by_question[k]));
    }
    return Outcome::answered(std::move(ordered));
}

}  // namespace askhost
