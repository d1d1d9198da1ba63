// A tool permission as typed data: what the agent wants to run (the whole command, or the edit's
// path and content), its reason, and what each of the question's options means. It travels beside
// the one question that asks it, so no face has to read the command out of the question's wording.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "json/json_writer.hpp"

namespace askhost {

struct Question;
struct Refusal;

// Other: a kind askhost does not know; shown, never picked on its own.
enum class PermissionKind { AllowOnce, AllowAlways, RejectOnce, RejectAlways, Other };

PermissionKind parse_permission_kind(std::string_view name);  // "allow_once", ...; else Other
std::string_view permission_kind_name(PermissionKind kind);   // "allow_once", ..., "other"

struct Permission {
    std::string tool;     // "Bash", "Write"; may be empty (an agent that names only a kind)
    std::string command;  // what will run, whole; empty for an edit or a tool without one
    std::string path;     // the file an edit writes, when there is one
    std::string content;  // the edit's new content (or the text it puts in), whole
    // The text an edit replaces (Edit's old_string), whole, when the agent names it: `content` is
    // then what takes its place, and an empty `content` deletes it.
    std::string replaces;
    std::string reason;  // the agent's own words for the call: its claim, not what runs
    // One per option of the permission's question, in its order: the option's label and meaning.
    struct Choice {
        std::string label;
        PermissionKind kind = PermissionKind::Other;
    };
    std::vector<Choice> options;
};

inline constexpr std::size_t kMaxPermissionTextBytes = 262144;  // command, content, replaces: each

// Reads the `permission` member of an ask against its questions: one question, whose options are
// the permission's options in the same order. nullopt when it is valid; else why, naming the field.
std::optional<Refusal> parse_permission(const rapidjson::Value& v, const std::vector<Question>& questions,
                                        Permission& out);

// {tool, command?, path?, content?, replaces?, reason?, options:[{label, kind}]} as a value.
void write_permission(JsonTextWriter& w, const Permission& p);

// The option a label names, or null.
const Permission::Choice* permission_choice(const Permission& p, std::string_view label);

}  // namespace askhost
