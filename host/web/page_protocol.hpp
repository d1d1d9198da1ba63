// The page protocol: the JSON messages askhost web and its page send each other over the
// WebSocket (docs/web.md, "What the page is sent"), as types read with from_json and written with
// to_json. The page's side is host/web/page/src/protocol.ts; tests/web/page_protocol.json holds the
// two to the same messages (tests/unit/test_page_protocol.cpp, tests/web/page_protocol.test.mjs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "json/json_codec.hpp"

namespace askhost::web {

// A value a host gave, passed on to the page as it came (its JSON text).
struct AsGiven {
    std::string json;
};

// The host that waits on a question.
struct PageHost {
    std::int64_t pid = 0;
    std::string kind, socket;
};

// One waiting question as the page sees it (the page's dialog model reads questions and
// permission; the rest it shows).
struct WebAsk {
    std::string key;  // "<host pid>.<connection>:<ask id>", never used twice in this run of the server
    AsGiven questions;
    std::optional<AsGiven> permission;  // the tool permission its one question asks (typed by the host)
    std::optional<AsGiven> metadata;
    std::string agent;
    PageHost host;
    std::string workspace;   // the asking agent's directory, else the host's first workspace folder
    std::string who;         // who asks and how it came ("codex · MCP")
    std::int64_t since = 0;  // when it started waiting, ms since the epoch
};

// --- server -> page --------------------------------------------------------------------------

// The first message on each WebSocket: this run's name and every waiting question, oldest first.
struct Snapshot {
    std::string server;
    std::vector<WebAsk> asks;
};
struct Added {
    WebAsk ask;
};
// reason: "answered" (from a page), "withdrawn" (the host took it back), "host-gone".
struct Removed {
    std::string key, reason;
};
// What became of a page's answer: taken (no error), or why not.
struct AnswerResult {
    std::string key;
    std::optional<std::string> error;
};
// After the snapshot, when askhost web sends Web Push: its public key and how much a push says.
struct PushKey {
    std::string key, content;
};
// What became of a page's push-subscribe and push-unsubscribe.
struct PushSubscribed {
    std::optional<std::string> error;
};
struct PushUnsubscribed {
    std::optional<std::string> error;
};
// Sent to the page that subscribed a device when its push service says the subscription is gone
// (404, 410): askhost web has dropped it, and the page's "Phone alerts: on" is no longer true.
struct PushDropped {
    std::string reason;
};
using ServerMessage =
    std::variant<Snapshot, Added, Removed, AnswerResult, PushKey, PushSubscribed, PushUnsubscribed, PushDropped>;

// --- page -> server --------------------------------------------------------------------------

// An outcome in the native shape for question `key`. Read leniently, as the server always has: a
// missing key is a question that does not wait, a missing outcome says so in the result.
struct Answer {
    std::string key;
    json::Borrowed outcome;  // nullptr: none given
};
struct PushSubscribe {
    json::Borrowed subscription;  // the browser's PushSubscription.toJSON(), read by web_push
};
struct PushUnsubscribe {
    std::string endpoint;
};
using PageMessage = std::variant<Answer, PushSubscribe, PushUnsubscribe>;

json::FieldStatus from_json(const rapidjson::Value& v, AsGiven& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PageHost& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, WebAsk& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Snapshot& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Added& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Removed& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, AnswerResult& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushKey& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushSubscribed& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushUnsubscribed& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushDropped& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, Answer& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushSubscribe& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PushUnsubscribe& out, const json::Path& at);
// By "type"; an unknown one is an error naming it.
json::FieldStatus from_json(const rapidjson::Value& v, ServerMessage& out, const json::Path& at);
json::FieldStatus from_json(const rapidjson::Value& v, PageMessage& out, const json::Path& at);

void to_json(const AsGiven& g, json::Writer& w);
void to_json(const PageHost& h, json::Writer& w);
void to_json(const WebAsk& a, json::Writer& w);
void to_json(const Snapshot& m, json::Writer& w);
void to_json(const Added& m, json::Writer& w);
void to_json(const Removed& m, json::Writer& w);
void to_json(const AnswerResult& m, json::Writer& w);
void to_json(const PushKey& m, json::Writer& w);
void to_json(const PushSubscribed& m, json::Writer& w);
void to_json(const PushUnsubscribed& m, json::Writer& w);
void to_json(const PushDropped& m, json::Writer& w);
void to_json(const ServerMessage& m, json::Writer& w);
void to_json(const Answer& m, json::Writer& w);
void to_json(const PushSubscribe& m, json::Writer& w);
void to_json(const PushUnsubscribe& m, json::Writer& w);
void to_json(const PageMessage& m, json::Writer& w);

}  // namespace askhost::web
