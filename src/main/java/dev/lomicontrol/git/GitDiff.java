package dev.lomicontrol.git;

import dev.lomicontrol.files.TextPage;

/** The unified diff of one path, with the status revision it was taken at. */
public record GitDiff(String path, String text, boolean binary, String observationRevision) {

    /** One page of {@link #text} in UTF-16 units, never splitting a surrogate pair (see {@link TextPage#of}). */
    public TextPage page(int startUtf16, int maxChars) {
        return TextPage.of(text, startUtf16, maxChars);
    }
}
