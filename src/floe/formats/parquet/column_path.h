// ColumnPath: ColumnMetaData.path_in_schema (a list<string>) held as one
// packed string, so that a column chunk's path costs no allocation when it
// is short (up to 15 packed bytes, std::string's inline buffer) and one
// when it is long, instead of a vector and a string per part.
//
// The packed form is the Thrift compact body of the list's elements: each
// part as an unsigned LEB128 length and its bytes. The footer decoder
// validates the parts and takes the bytes in one copy (FromPacked), the
// encoder writes them back in one append (packed()).
//
// Parts come out as string_views into the path; iteration walks the parts
// in order, indexing walks from the front (paths are a few parts long).
//
// Thread safety: a plain value.

#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace floe::parquet {

class ColumnPath {
 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::string_view*;
    using reference = std::string_view;

    const_iterator() = default;
    std::string_view operator*() const { return part_; }
    const std::string_view* operator->() const { return &part_; }
    const_iterator& operator++() {
      Load(part_.data() + part_.size());
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.next_ == b.next_; }

   private:
    friend class ColumnPath;
    const_iterator(const char* at, const char* end) : end_(end) { Load(at); }
    void Load(const char* at);

    const char* next_ = nullptr;  // the start of the current part's length; end_ when done
    const char* end_ = nullptr;
    std::string_view part_;
  };
  using iterator = const_iterator;
  using value_type = std::string_view;
  using size_type = size_t;

  ColumnPath() = default;
  ColumnPath(std::initializer_list<std::string_view> parts);
  // Implicit, so that a schema column's path can be assigned.
  ColumnPath(const std::vector<std::string>& parts);

  // A path from its packed form (see above). The caller has validated it:
  // FromPacked trusts every length.
  static ColumnPath FromPacked(std::string_view packed, uint32_t size) {
    ColumnPath p;
    p.AssignPacked(packed, size);
    return p;
  }
  // Makes this path the packed one, reusing this path's buffer.
  void AssignPacked(std::string_view packed, uint32_t size) {
    packed_.assign(packed);
    size_ = size;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const_iterator begin() const { return {packed_.data(), packed_.data() + packed_.size()}; }
  const_iterator end() const { return {packed_.data() + packed_.size(), packed_.data() + packed_.size()}; }
  // Precondition: i < size(), !empty().
  std::string_view operator[](size_t i) const;
  std::string_view front() const { return *begin(); }
  std::string_view back() const { return (*this)[size_ - 1]; }

  void push_back(std::string_view part);
  void clear() {
    packed_.clear();
    size_ = 0;
  }

  std::vector<std::string> ToVector() const;
  // The parts joined with '.', as in error messages.
  std::string Dotted() const;
  // The packed form; see above.
  std::string_view packed() const { return packed_; }

  // Part by part: a writer may have used longer length varints than needed.
  friend bool operator==(const ColumnPath& a, const ColumnPath& b);
  friend bool operator==(const ColumnPath& a, const std::vector<std::string>& b);

 private:
  std::string packed_;
  uint32_t size_ = 0;
};

}  // namespace floe::parquet
