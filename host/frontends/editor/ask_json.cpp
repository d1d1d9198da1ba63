#include "frontends/editor/ask_json.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "core/text/utf8.hpp"
#include "core/text/who_asks.hpp"
#include "json/json_access.hpp"
#include "json/json_codec.hpp"

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
    if (ask.permission) {
        w.Key("permission");
        write_permission(w, *ask.permission);
    }
    if (!ask.metadata_json.empty()) {
        w.Key("metadata");
        w.RawValue(ask.metadata_json.data(), ask.metadata_json.size(), rapidjson::kObjectType);
    }
    write_str(w, "agent", ask.agent);
    if (!ask.client.empty()) write_str(w, "client", ask.client);
    write_str(w, "route", ask.route.empty() ? std::string("agent") : ask.route);
    if (!ask.cwd.empty()) write_str(w, "cwd", ask.cwd);
}

void to_json(const ShowAsk& show, JsonWriter& w) {
    w.StartObject();
    write_ask_members(w, show.ask, show.caps);
    write_str(w, "who", who_asks(show.ask.agent, show.ask.route));
    w.EndObject();
}

std::string ask_show_params(const Ask& ask, const ClientAskCaps& caps) { return json::to_text(ShowAsk{ask, caps}); }

std::string ask_members_text(const Ask& ask) {
    rapidjson::StringBuffer buf(json::stack_allocator(), 1024);
    JsonWriter w(buf);
    w.StartObject();
    write_ask_members(w, ask, ClientAskCaps{});
    write_str(w, "who", who_asks(ask.agent, ask.route));
    w.EndObject();
    return std::string(buf.GetString() + 1, buf.GetSize() - 2);  // {...}: the members
}

std::string ask_state_params(const std::vector<std::string_view>& members) {
    // What a writer makes of {state, pending: [{members}, ...]}: no white space.
    std::size_t size = 40;
    for (std::string_view m : members) size += m.size() + 3;
    std::string out;
    out.reserve(size);
    out += members.empty() ? R"({"state":"idle","pending":[)" : R"({"state":"waiting","pending":[)";
    for (std::size_t i = 0; i < members.size(); ++i) {
        out += i == 0 ? "{" : ",{";
        out += members[i];
        out += '}';
    }
    out += "]}";
    return out;
}

std::string ask_state_params(const std::vector<const Ask*>& pending) {
    std::vector<std::string> texts;
    texts.reserve(pending.size());
    for (const Ask* a : pending) texts.push_back(ask_members_text(*a));
    return ask_state_params(std::vector<std::string_view>(texts.begin(), texts.end()));
}

std::string outcome_json(const Outcome& outcome) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_native_result(w, outcome);
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

namespace {

bool is_option(const Question& q, std::string_view label) {
    return std::any_of(q.options.begin(), q.options.end(), [&](const Option& o) { return o.label == label; });
}

// A selectedOption must be one of the question's options, named exactly, and the answer must say
// the same: {"answer": "Deny", "selectedOption": "Allow"} is no answer to act on. An answer to a
// permission names one of its options, or is typed (wasCustom: a refusal in the person's words).
std::optional<std::pair<std::string, std::string>> check_selected_option(const Question& q, bool permission,
                                                                         const Answer& a, bool custom_given) {
    if (a.selected_option) {
        const std::string& s = *a.selected_option;
        if (!is_option(q, s))
            return std::pair{std::string("selectedOption"),
                             "\"" + utf8::cut(s, 200, "...") + "\" is none of the question's options"};
        if (a.was_custom) return std::pair{std::string("wasCustom"), std::string("true, but an option is selected")};
        const bool agrees = q.multi_select ? std::find(a.values.begin(), a.values.end(), s) != a.values.end()
                                           : a.values.size() == 1 && a.values.front() == s;
        if (!agrees)
            return std::pair{std::string("selectedOption"), "\"" + utf8::cut(s, 200, "...") +
                                                                "\" disagrees with the answer \"" +
                                                                utf8::cut(a.values.front(), 200, "...") + "\""};
    }
    if (permission && custom_given && !a.was_custom && !a.selected_option && !is_option(q, a.values.front()))
        return std::pair{std::string("answer"),
                         "\"" + utf8::cut(a.values.front(), 200, "...") + "\" is none of the permission's options"};
    return std::nullopt;
}

// One of a client's answers, matched to its question (`index`); checks what one answer alone can.
json::FieldStatus read_answer(const rapidjson::Value& v, const Ask& ask,
                              const std::vector<std::optional<Answer>>& taken, std::size_t& index, Answer& out,
                              const json::Path& at) {
    json::ObjectReader r(v, at);
    if (auto e = r.required("question", out.question).status()) return e;
    const json::Path question_at = at.field("question");
    index = ask.questions.size();
    for (std::size_t k = 0; k < ask.questions.size(); ++k)
        if (ask.questions[k].question == out.question) index = k;
    if (index == ask.questions.size()) return json::invalid(question_at, "no such question \"" + out.question + "\"");
    if (taken[index]) return json::invalid(question_at, "answered twice");
    const Question& question = ask.questions[index];
    const json::Path answer_at = at.field("answer");
    const rapidjson::Value* answer = r.member("answer");
    if (!answer) return json::invalid(answer_at, "missing");
    if (answer->IsString()) {
        out.values.push_back(answer->GetString());
    } else if (answer->IsArray()) {
        for (const auto& s : answer->GetArray()) {
            if (!s.IsString()) return json::invalid(answer_at, "expected strings");
            out.values.push_back(s.GetString());
        }
        out.multi = true;
    } else {
        return json::invalid(answer_at, "expected a string or an array of strings");
    }
    if (out.values.empty() || (out.values.size() == 1 && out.values[0].empty()))
        return json::invalid(answer_at, "empty: an answer that says nothing is not an answer");
    // A multi-select question shown as a plain list still answers as an array.
    if (question.multi_select) out.multi = true;
    else if (out.values.size() > 1) return json::invalid(answer_at, "several values for a single-choice question");
    std::optional<bool> was_custom;
    r.lenient("selectedOption", out.selected_option).lenient("wasCustom", was_custom);
    out.was_custom = was_custom.value_or(false);
    if (auto wrong = check_selected_option(question, ask.permission.has_value(), out, was_custom.has_value()))
        return json::invalid(at.field(wrong->first), wrong->second);
    if (!out.selected_option && !out.multi && !out.was_custom) {
        bool is_label = false;
        for (const auto& o : question.options) is_label |= o.label == out.values[0];
        if (is_label) out.selected_option = out.values[0];
        else out.was_custom = true;
    }
    r.lenient("notes", out.notes).lenient("preview", out.preview);
    return {};
}

}  // namespace

json::FieldStatus read_client_outcome(const rapidjson::Value& v, const Ask& ask, Outcome& out, const json::Path& at) {
    json::ObjectReader r(v, at);
    bool answered = false;
    if (auto e = r.required("answered", answered).status()) return e;
    if (!answered) {
        bool timed_out = false;
        std::string reason;
        r.lenient("timedOut", timed_out).lenient("reason", reason);
        out = timed_out ? Outcome::timed_out() : Outcome::cancelled(std::move(reason));
        return {};
    }
    std::vector<json::Borrowed> answers;
    if (auto e = r.required("answers", answers).status()) return e;
    const json::Path list = at.field("answers");
    std::vector<std::optional<Answer>> by_question(ask.questions.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
        std::size_t index = 0;
        Answer a;
        if (auto e = read_answer(*answers[i].value, ask, by_question, index, a, list.index(i))) return e;
        by_question[index] = std::move(a);
    }
    std::vector<Answer> ordered;
    for (std::size_t k = 0; k < by_question.size(); ++k) {
        if (!by_question[k])
            return json::invalid(
                list, "question " + std::to_string(k + 1) + " (\"" + ask.questions[k].question + "\") has no answer");
        ordered.push_back(std::move(*by_question[k]));
    }
    out = Outcome::answered(std::move(ordered));
    return {};
}

json::FieldStatus from_json(const rapidjson::Value& v, ClientOutcome& out, const json::Path& at) {
    return read_client_outcome(v, *out.ask, out.outcome, at);
}

Result<Outcome> parse_client_outcome(const rapidjson::Value& result, const Ask& ask) {
    Outcome out;
    if (auto e = read_client_outcome(result, ask, out, json::Path("result"))) return Error::failed(e->message, e->path);
    return out;
}

}  // namespace askhost
