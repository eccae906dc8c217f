package dev.lomicontrol.files;

import java.util.Objects;

/** File bytes decoded as text, with the encoding and line endings needed to write them back exactly. */
public record DecodedText(String text, TextEncoding encoding, LineEndings lineEndings) {
    public DecodedText {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(encoding, "encoding");
        Objects.requireNonNull(lineEndings, "lineEndings");
    }
}
