#include "store/codec.hpp"

namespace tooluse::store::detail {

result<llm::message> journal_message_from(const json& j) {
  auto m = llm::decode_message(j);
  const std::string from = "the message";
  if (!m && m.error().message.rfind(from, 0) == 0)
    m.error().message.replace(0, from.size(), "store: a journaled message");
  return m;
}

}  // namespace tooluse::store::detail
