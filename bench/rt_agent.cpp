// Benchmark agent on the native protocol. Modes:
//   rt_agent roundtrip COUNT WARMUP OUT   ask COUNT+WARMUP times, one at a time; write each timed
//                                         round trip (ns, one per line) after the warm-up to OUT
//   rt_agent pending COUNT                ask COUNT questions at once, then wait for end of input
// Plain blocking POSIX I/O: the agent itself should cost as little as possible.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string request(long id) {
    return "{\"type\":\"ask_user_request\",\"requestId\":\"req-" + std::to_string(id) +
           "\",\"questions\":[{\"question\":\"Which database should we use?\",\"header\":\"Database\","
           "\"options\":[{\"label\":\"PostgreSQL (Recommended)\",\"description\":\"Battle-tested relational DB\"},"
           "{\"label\":\"SQLite\",\"description\":\"Lightweight, file-based\"}]},"
           "{\"question\":\"What should we name this service? (" +
           std::to_string(id) +
           ")\",\"header\":\"Service Name\"}],"
           "\"metadata\":{\"source\":\"bench\"}}\n";
}

bool write_all(int fd, const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
        ssize_t n = ::write(fd, s.data() + off, s.size() - off);
        if (n <= 0) return false;
        off += static_cast<std::size_t>(n);
    }
    return true;
}

// Reads one line from stdin (buffered across calls). false at end of input.
bool read_line(std::string& line) {
    static std::string buf;
    static std::size_t pos = 0;
    for (;;) {
        auto nl = buf.find('\n', pos);
        if (nl != std::string::npos) {
            line.assign(buf, pos, nl - pos);
            pos = nl + 1;
            if (pos > 65536) {
                buf.erase(0, pos);
                pos = 0;
            }
            return true;
        }
        char chunk[65536];
        ssize_t n = ::read(0, chunk, sizeof chunk);
        if (n <= 0) return false;
        buf.append(chunk, static_cast<std::size_t>(n));
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 5 && std::strcmp(argv[1], "roundtrip") == 0) {
        const long count = std::atol(argv[2]), warmup = std::atol(argv[3]);
        std::vector<long long> samples;
        samples.reserve(static_cast<std::size_t>(count));
        std::string line;
        for (long i = 0; i < count + warmup; ++i) {
            const std::string req = request(i);
            auto t0 = std::chrono::steady_clock::now();
            if (!write_all(1, req)) return 2;
            do {
                if (!read_line(line)) return 3;
            } while (line.find("\"ask_user_response\"") == std::string::npos);
            auto t1 = std::chrono::steady_clock::now();
            if (line.find("\"answered\":true") == std::string::npos) {
                std::fprintf(stderr, "rt_agent: not answered: %s\n", line.c_str());
                return 4;
            }
            if (i >= warmup) samples.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
        }
        FILE* out = std::fopen(argv[4], "w");
        if (!out) return 5;
        for (auto s : samples) std::fprintf(out, "%lld\n", s);
        std::fclose(out);
        return 0;
    }
    if (argc >= 3 && std::strcmp(argv[1], "pending") == 0) {
        const long count = std::atol(argv[2]);
        std::string all;
        for (long i = 0; i < count; ++i) all += request(i);
        if (!write_all(1, all)) return 2;
        std::string line;
        while (read_line(line)) {}
        return 0;
    }
    std::fprintf(stderr, "usage: rt_agent roundtrip COUNT WARMUP OUT | pending COUNT\n");
    return 2;
}
