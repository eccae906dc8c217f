package dev.lomicontrol.settings;

/**
 * The {@code editor} section as typed values. Tab size and insert spaces are reported to agents (the
 * broker never reformats); {@code insertFinalNewline} makes a save end a non-empty text with "\n".
 */
public record EditorSettings(int tabSize, boolean insertSpaces, boolean insertFinalNewline) {

    /** The shipped defaults: 4, spaces, final newline. */
    public static final EditorSettings DEFAULTS = new EditorSettings(4, true, true);

    public EditorSettings {
        if (tabSize < 1 || tabSize > 16) {
            throw new IllegalArgumentException("tabSize must be 1..16, was " + tabSize);
        }
    }
}
