// fs/read_text_file and fs/write_text_file for an ACP agent, confined to its working directory:
// a path outside it (after resolving "..", and symlinks that exist) is refused.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace askhost::acp {

// Each refusal is an Error whose code is the agent's JSON-RPC error (rpc_error::invalid_params:
// a bad path, outside; acp_error::resource_not_found; rpc_error::internal_error) and whose message
// names the path and the reason.

class WorkspaceFiles {
public:
    static constexpr std::size_t max_read_bytes = 8u << 20;  // a whole file, before line/limit

    // `root` must be absolute; it is resolved (symlinks) once here.
    explicit WorkspaceFiles(const std::filesystem::path& root);

    const std::filesystem::path& root() const { return root_; }

    // The path inside the root, or why not. `path` must be absolute (ACP's rule).
    Result<std::filesystem::path> resolve(std::string_view path) const;

    // The text from 1-based `line` (default 1), at most `limit` lines. Invalid UTF-8 becomes U+FFFD.
    Result<std::string> read(std::string_view path, std::optional<std::size_t> line,
                             std::optional<std::size_t> limit) const;

    // Replaces the file (via a temporary file and rename, keeping an existing file's mode);
    // missing parent directories inside the root are created.
    Status write(std::string_view path, std::string_view content) const;

private:
    std::filesystem::path root_;
    mutable unsigned tmp_counter_ = 0;  // unique temporary file names
};

}  // namespace askhost::acp
