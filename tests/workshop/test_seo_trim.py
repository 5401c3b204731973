"""A description cut to the search result's width (attention_workshop.ae_seo.trim) keeps whole words: in English it
ends at the last space, in Chinese at the last Chinese character before the cut, even where a Latin word follows
(the Chinese lesson 08's description was once cut back to its first word, "Luong…", at the space after it)."""

from attention_workshop.ae_seo import DESCRIPTION_LIMIT, trim, width

ZH_08 = (
    "Luong 的解码器、局部窗口、因果遮罩，以及带查询、键和值的自注意力："
    "本课把它们逐一算出来，发现每一个里面都是同一种读取：一个发问的状态、一个评分函数、softmax 和一个加权和。"
)


def test_a_chinese_description_cut_inside_a_latin_word_keeps_the_chinese_before_it():
    for end in range(60, len(ZH_08)):
        text = ZH_08[:end] + "x" * 200  # the cut falls in a Latin run after Chinese text
        cut = trim(text)
        assert width(cut) <= DESCRIPTION_LIMIT and cut.endswith("…")
        assert len(cut) > 20, cut  # never back to the first word


def test_an_english_description_is_cut_at_a_space():
    text = "word " * 40
    cut = trim(text)
    assert cut.endswith("word…") and width(cut) <= DESCRIPTION_LIMIT
