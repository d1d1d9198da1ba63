// Test-only, never fuzzed: undefined behaviour on purpose, so that a test (sanitizer_rule.py) and
// `./dev fuzz` can show that a sanitizer report fails the run, and that the one suppression
// (ubsan.supp: pointer-overflow in RapidJSON's internal/stack.h) hides nothing of askhost's own.
// The input names what to do: signed-overflow, pointer-overflow (the check the suppression names,
// in this file), heap-overflow (AddressSanitizer), rapidjson (parse and write a document: the
// suppressed report, where the compiler checks for it); anything else does nothing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace {

// Kept opaque so the compiler neither folds the undefined behaviour away nor warns about it.
template <typename T>
T opaque(T v) {
    volatile T keep = v;
    return keep;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view what(reinterpret_cast<const char*>(data), size);
    while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.remove_suffix(1);
    if (what == "signed-overflow") {
        int big = opaque(2147483647);
        std::printf("%d\n", big + opaque(1));
    } else if (what == "pointer-overflow") {
        // The message RapidJSON's suppressed report has (clang), in this file; then an address
        // that wraps around (what gcc checks for).
        char* null = opaque<char*>(nullptr);
        std::printf("%p\n", static_cast<void*>(null + opaque(16)));
        char buffer[8] = {};
        char* p = opaque<char*>(buffer);
        const auto below_zero = -static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(p)) - 16;
        std::printf("%p\n", static_cast<void*>(p + opaque(below_zero)));
    } else if (what == "heap-overflow") {
        std::vector<char> v(opaque<std::size_t>(4));
        std::printf("%d\n", v.data()[opaque<std::size_t>(4)]);
    } else if (what == "rapidjson") {
        rapidjson::Document doc;
        doc.Parse(R"({"a":[1,2,{"b":"c"}]})");
        rapidjson::StringBuffer buf;
        rapidjson::Writer<rapidjson::StringBuffer> w(buf);
        doc.Accept(w);
        std::printf("%s\n", buf.GetString());
    }
    return 0;
}
