// Asks, answers and outcomes, and the three result shapes the seeds define.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/model/question.hpp"
#include "json/json_writer.hpp"

namespace askhost {

// One ask as the broker and the frontends see it.
struct Ask {
    std::string id;  // host-assigned, unique in one host run ("ask-1")
    std::vector<Question> questions;
    std::string metadata_json;             // "" or a JSON object
    std::string agent;                     // the agent's program name, for display ("codex")
    std::string client;                    // the program that brought it, when another: an MCP client's name
    std::string route;                     // how it arrived: "" (the agent askhost runs), "mcp", "hook", "submit"
    std::string cwd;                       // the asking agent's working directory, when known
    Profile profile = Profile::Lenient;    // the rules it was checked by; a strict result is capped
    std::optional<Permission> permission;  // a tool permission asked by its one question

    // What `input` asks, taken into this ask: its questions, metadata and permission. Its preset
    // answers are not asked (outcome_without_asking answers with them first).
    void take_asked(AskInput&& input) {
        questions = std::move(input.questions);
        metadata_json = std::move(input.metadata_json);
        permission = std::move(input.permission);
    }
};

struct Answer {
    std::string question;
    std::vector<std::string> values;             // one value unless the question is multi-select
    bool multi = false;                          // answer is an array (multi-select question)
    std::optional<std::string> selected_option;  // the option label, when one option was chosen
    bool was_custom = false;                     // typed through "Other" or a free-text question
    std::string preview;                         // the chosen option's preview, when shown
    std::string notes;                           // the user's notes, when given
};

enum class OutcomeKind { Answered, Cancelled, TimedOut, ConnectionLost, Pending, Refused };

struct Outcome {
    OutcomeKind kind = OutcomeKind::Cancelled;
    std::vector<Answer> answers;     // Answered only
    std::string pending_file;        // Pending only
    std::size_t open_questions = 0;  // Pending only: the questions open in the file (0: not known)
    Refusal error;                   // Refused only
    std::string reason;              // optional detail for Cancelled

    static Outcome answered(std::vector<Answer> a);
    static Outcome cancelled(std::string reason = {});
    static Outcome timed_out();
    static Outcome connection_lost();
    static Outcome pending(std::string file, std::size_t open_questions);
    static Outcome refused(Refusal r);
};

// Who hears an ask's outcome: the broker's askers, the adapters' host, a host client, askhost
// mcp's askers, the ask service. (The RPC layer's Reply<Result> answers a request; this is not it.)
using OnOutcome = std::function<void(Outcome)>;

std::string_view outcome_kind_name(OutcomeKind k);

using JsonWriter = JsonTextWriter;  // rapidjson's, with fast strings

// The ask_user spec's shape, as members of an object the caller has opened:
// answered, answers[{question, answer, selectedOption?, wasCustom}], cancelled?, timedOut?,
// connectionLost?, pendingFile?, error?, and `text` (the model text) when there is one.
void write_native_result(JsonWriter& w, const Outcome& outcome);

// REQ-AUQ-003's shape as members of an open object: "answers": {"question": "label"} (multi-select
// joined with ", "), and "annotations" when any answer has a preview or notes.
void write_answers_map(JsonWriter& w, const std::vector<Answer>& answers);

// The reference implementation's text for the model, byte for byte.
std::string model_text(const std::vector<Answer>& answers);
std::string model_text(const std::vector<PresetAnswer>& answers, const std::vector<PresetAnnotation>& annotations);

// The reference implementation's cancel text, one for every agent format: "User declined to answer
// questions", then " (reason)" when there is one.
std::string declined_text(std::string_view reason = {});

// The instruction text handed back with a pending-questions file: its `askhost answer` example has
// a placeholder for each of the file's open questions, as that command wants them.
std::string pending_text(const std::string& pending_file, std::size_t open_questions);

// Answers built from pre-supplied answers (reference implementation's `answers`).
std::vector<Answer> answers_from_presets(const std::vector<Question>& questions,
                                         const std::vector<PresetAnswer>& presets,
                                         const std::vector<PresetAnnotation>& annotations);

// What an ask gets without anyone being asked: its refusal, or the answers it brought along
// (pre-supplied `answers`). nullopt: it is for a person.
std::optional<Outcome> outcome_without_asking(const Parsed<AskInput>& parsed);

// Model-input check: a whole outcome serialised must stay under Limits::max_result_bytes.
bool result_within_cap(const Outcome& outcome, std::size_t margin = 0);

// The strict profile's cap (the reference tool's maxResultBytes) without losing an answer: while
// the result would not fit, with `kResultMargin` to spare for the agent format's envelope, the
// longest answer text (a typed value or notes) is cut to its first `kKeptBytes`; `keep(question
// index, whole text)` saves the whole and returns where ("" when it could not), and the cut text
// ends saying so. Returns how many texts were cut.
inline constexpr std::size_t kResultMargin = 4096;
inline constexpr std::size_t kKeptBytes = 2000;
std::size_t fit_result_cap(Outcome& outcome,
                           const std::function<std::string(std::size_t question, std::string_view whole)>& keep);

}  // namespace askhost
