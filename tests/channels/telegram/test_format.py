"""Markdown → Telegram HTML, and cutting long answers into messages Telegram accepts."""

from __future__ import annotations

import pytest

from channels.telegram.format import MAX_MESSAGE, split_html, to_html
from tests.support.fake_telegram import HtmlError, check_html, utf16_len


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("plain", "plain"),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("**bold** and __bold__", "<b>bold</b> and <b>bold</b>"),
        ("*it* and _it_", "<i>it</i> and <i>it</i>"),
        ("snake_case_name and 2*3*4", "snake_case_name and 2*3*4"),
        ("~~gone~~", "<s>gone</s>"),
        ("`a<b>&c`", "<code>a&lt;b&gt;&amp;c</code>"),
        ("`**not bold**`", "<code>**not bold**</code>"),
        ("**bold _and it_**", "<b>bold <i>and it</i></b>"),
        (
            '[site](https://x.org/?a=1&b="2")',
            '<a href="https://x.org/?a=1&amp;b=&quot;2&quot;">site</a>',
        ),
        ("[bad](javascript:void)", "bad"),
        ("# Title", "<b>Title</b>"),
        ("- one\n- two", "• one\n• two"),
        ("> quoted\n> more", "<blockquote>quoted\nmore</blockquote>"),
        (
            "```python\nif a < b:\n    pass\n```",
            '<pre><code class="language-python">if a &lt; b:\n    pass</code></pre>',
        ),
        ("```\nx & y\n```", "<pre>x &amp; y</pre>"),
        ("one\n\n\n\ntwo", "one\n\ntwo"),
        ("**unclosed bold", "**unclosed bold"),
    ],
)
def test_markdown_becomes_telegram_html(markdown: str, expected: str) -> None:
    html = to_html(markdown)
    assert html == expected
    check_html(html)  # what the fake server (and Telegram) accepts


@pytest.mark.parametrize(
    "bad",
    ["a < b", "a & b", "<b>x", "<b>x</i>", "<div>x</div>", "<a>x</a>", "<code><b>x</b></code>"],
)
def test_the_fake_servers_html_check_refuses_what_telegram_refuses(bad: str) -> None:
    with pytest.raises(HtmlError):
        check_html(bad)


def test_a_short_answer_is_one_message() -> None:
    assert split_html("It is **noon** in Tokyo.") == ["It is <b>noon</b> in Tokyo."]


def test_5000_characters_are_two_messages_cut_at_a_paragraph() -> None:
    paragraph = ("This sentence is about the time of day. " * 25).strip()  # 999 characters
    text = "\n\n".join([paragraph] * 5)
    parts = split_html(text)
    assert len(parts) == 2
    assert all(utf16_len(part) <= MAX_MESSAGE for part in parts)
    assert parts[0].endswith("day.") and parts[1].startswith("This")
    assert "\n\n".join(check_html(p) for p in parts) == text


def test_a_long_paragraph_is_cut_at_a_sentence_end() -> None:
    text = "Short one. " + "word " * 900 + "end of the long sentence. Tail sentence here."
    parts = split_html(text, limit=1000)
    assert all(utf16_len(p) <= 1000 for p in parts)
    assert all(check_html(p) for p in parts)
    assert parts[-1].endswith("Tail sentence here.")


def test_a_cut_inside_bold_closes_and_reopens_the_tag() -> None:
    text = "**" + ("Bold words keep going. " * 300).strip() + "**"
    parts = split_html(text)
    assert len(parts) == 2
    for part in parts:
        assert part.startswith("<b>") and part.endswith("</b>")
        check_html(part)


def test_a_code_block_longer_than_a_message_stays_code_in_every_part() -> None:
    code = "\n".join(f"x{i} = {i} < {i + 1} & True" for i in range(400))
    parts = split_html(f"```python\n{code}\n```")
    assert len(parts) >= 2
    for part in parts:
        assert part.startswith('<pre><code class="language-python">')
        assert utf16_len(part) <= MAX_MESSAGE
    assert "\n".join(check_html(p) for p in parts) == code


def test_escaping_is_counted_so_parts_still_fit() -> None:
    parts = split_html("<&> " * 2000)
    assert len(parts) >= 3  # each "<&> " is 14 characters of HTML
    assert all(utf16_len(p) <= MAX_MESSAGE for p in parts)
    assert all(check_html(p) for p in parts)


def test_a_word_longer_than_a_message_is_cut_hard() -> None:
    parts = split_html("x" * 5000)
    assert [len(p) for p in parts] == [4096, 904]


def test_length_counts_utf16_units() -> None:
    parts = split_html("😀" * 3000)  # 6000 UTF-16 units
    assert all(utf16_len(p) <= MAX_MESSAGE for p in parts)
    assert "".join(parts) == "😀" * 3000


def test_empty_text_is_no_message() -> None:
    assert split_html("  \n\n ") == []
