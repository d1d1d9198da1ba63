// The checks of what a target writes, built without coverage (oracle.cpp): a check is the oracle,
// not what is fuzzed, so it should neither cost a run coverage bookkeeping nor add features of its
// own to the corpus. For the targets whose every input writes many replies (jsonrpc, mcp).
#pragma once

#include <string>
#include <string_view>

// valid_json (json_check.hpp), uninstrumented.
bool oracle_valid_json(std::string_view text);

// What a host writes to an editor, read as encode_frame writes it: frames of exactly
// "Content-Length: N\r\n\r\n" and N bytes, each body one valid JSON text. A second, stricter reader
// than askhost's own FrameDecoder (which is lenient, as peers need).
class OracleFrames {
public:
    // The next bytes as they come. false (and error() says why) once they are anything else.
    bool feed(std::string_view bytes);
    // Whether everything fed so far ended on a frame's end.
    bool whole() const { return pending_.empty(); }
    const std::string& error() const { return error_; }

private:
    std::string pending_;
    std::string error_;
};
