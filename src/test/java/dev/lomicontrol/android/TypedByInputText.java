package dev.lomicontrol.android;

/**
 * What AOSP's {@code input text WORD} types for {@code WORD}: its {@code sendText} turns each
 * {@code %s} into a space and types every other character as it is (a copy of that loop, so the
 * tests can check the word we send against the text asked for).
 */
final class TypedByInputText {

    private TypedByInputText() {}

    static String typed(String word) {
        StringBuilder buff = new StringBuilder(word);
        boolean escapeFlag = false;
        for (int i = 0; i < buff.length(); i++) {
            if (escapeFlag) {
                escapeFlag = false;
                if (buff.charAt(i) == 's') {
                    buff.setCharAt(i, ' ');
                    buff.deleteCharAt(--i);
                }
            }
            if (buff.charAt(i) == '%') {
                escapeFlag = true;
            }
        }
        return buff.toString();
    }
}
