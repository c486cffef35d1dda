/**
 * Frequent Chinese and Japanese function words (particles, copulas, pronouns)
 * that carry no topic, in the spirit of the stop-word list LazyLLM's
 * `bm25_chinese` applies after jieba segmentation.
 */
export const CJK_STOP_WORDS: readonly string[] = [
  // Chinese
  '的', '了', '着', '过', '和', '与', '及', '或', '而', '是', '在', '也', '就', '把', '被', '对', '从', '向', '之',
  '其', '这', '那', '这个', '那个', '这些', '那些', '一个', '什么', '怎么', '吗', '呢', '吧', '啊', '呀', '我', '你',
  '他', '她', '它', '我们', '你们', '他们', '有', '没有', '不', '很', '还', '又', '但', '但是', '如果', '因为', '所以',
  '以及', '并且', '可以', '哪些', '如何', '为什么',
  // Japanese
  'の', 'に', 'は', 'を', 'が', 'と', 'で', 'も', 'へ', 'や', 'か', 'な', 'ね', 'よ', 'から', 'まで', 'より', 'だ',
  'です', 'ます', 'でした', 'ました', 'する', 'した', 'して', 'いる', 'ある', 'これ', 'それ', 'あれ', 'この', 'その',
];
