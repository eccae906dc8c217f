package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decoding and encoding file bytes as text, byte-exact in both directions: {@code encode(decode(b))}
 * gives back {@code b} for every text file. The encoding is chosen by BOM (UTF-8, UTF-16LE,
 * UTF-16BE), otherwise strict UTF-8. Line endings are kept as they are and reported.
 */
public final class TextCodec {

    private static final byte[] BOM_UTF_8 = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] BOM_UTF_16LE = {(byte) 0xFF, (byte) 0xFE};
    private static final byte[] BOM_UTF_16BE = {(byte) 0xFE, (byte) 0xFF};

    private static final char REPLACEMENT = '\uFFFD';

    private TextCodec() {}

    /**
     * Decodes {@code bytes}. Bytes that are not valid text in the detected encoding, or that contain
     * NUL (binary files), are {@code UNSUPPORTED_CAPABILITY}: the file exists but cannot be shown as
     * text.
     */
    public static DecodedText decode(byte[] bytes) {
        return decode(bytes, detect(bytes));
    }

    private static DecodedText decode(byte[] bytes, TextEncoding encoding) {
        int skip = bom(encoding).length;
        String text = decodeStrictly(bytes, skip, encoding);
        if (text.indexOf('\0') >= 0) {
            throw new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, "the file is binary");
        }
        return new DecodedText(text, encoding, lineEndings(text));
    }

    /**
     * One page of the text in {@code bytes} ({@link TextPage#of}) with the whole text's encoding and line
     * endings, refused exactly as {@link #decode} and {@link TextPage#of} refuse. A UTF-8 text that is all
     * ASCII without NUL or CR, as most source files are, is only scanned and its page is the one string
     * made; any other text is decoded whole first.
     */
    public static DecodedPage page(byte[] bytes, int startUtf16, int maxChars) {
        TextEncoding encoding = detect(bytes);
        int skip = bom(encoding).length;
        if (encoding == TextEncoding.UTF_8 || encoding == TextEncoding.UTF_8_BOM) {
            int plain = AsciiScan.plain(bytes, skip);
            if (plain != AsciiScan.NOT_PLAIN) {
                return new DecodedPage(
                        TextPage.ofAscii(bytes, skip, bytes.length - skip, startUtf16, maxChars),
                        encoding,
                        plain == AsciiScan.WITH_LF ? LineEndings.LF : LineEndings.NONE);
            }
        }
        DecodedText decoded = decode(bytes, encoding);
        return new DecodedPage(
                TextPage.of(decoded.text(), startUtf16, maxChars), decoded.encoding(), decoded.lineEndings());
    }

    /** A page of a file's text and how the whole file is written. */
    public record DecodedPage(TextPage page, TextEncoding encoding, LineEndings lineEndings) {}

    /**
     * UTF-8 through the JDK's fast String decoding (compact strings, the ASCII path vectorised), which
     * replaces a malformed sequence with U+FFFD: only text that holds U+FFFD is decoded again with the
     * strict decoder, which tells a replacement from a U+FFFD in the file (the same result, without a
     * second pass over every file read).
     */
    private static String decodeStrictly(byte[] bytes, int skip, TextEncoding encoding) {
        Charset charset = charset(encoding);
        if (charset == StandardCharsets.UTF_8) {
            String text = new String(bytes, skip, bytes.length - skip, StandardCharsets.UTF_8);
            if (text.indexOf(REPLACEMENT) < 0) {
                return text;
            }
        }
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, skip, bytes.length - skip))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY, "the file is not valid " + encoding.wire() + " text");
        }
    }

    /**
     * Encodes {@code text} in {@code encoding}, with the BOM that encoding implies. Text with a lone
     * surrogate cannot be encoded: {@code INVALID_ARGUMENT}.
     */
    public static byte[] encode(String text, TextEncoding encoding) {
        ByteBuffer body;
        try {
            body = charset(encoding)
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(text));
        } catch (CharacterCodingException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text contains an unpaired surrogate");
        }
        byte[] bom = bom(encoding);
        byte[] out = new byte[bom.length + body.remaining()];
        System.arraycopy(bom, 0, out, 0, bom.length);
        body.get(out, bom.length, body.remaining());
        return out;
    }

    /** Turns every CRLF and lone CR into LF. */
    public static String normalizeToLf(String text) {
        if (text.indexOf('\r') < 0) {
            return text;
        }
        return text.replace("\r\n", "\n").replace('\r', '\n');
    }

    /**
     * Gives LF text the line endings of the original file: CRLF and CR are restored; NONE, LF and
     * MIXED give LF (a mixed file cannot be reproduced line by line, so it is normalized). Any CR in
     * the input is normalized first.
     */
    public static String withLineEndings(String lfText, LineEndings original) {
        String lf = normalizeToLf(lfText);
        return switch (original) {
            case CRLF -> lf.replace("\n", "\r\n");
            case CR -> lf.replace('\n', '\r');
            case NONE, LF, MIXED -> lf;
        };
    }

    /** The line-ending style of {@code text}. */
    static LineEndings lineEndings(String text) {
        int firstCr = text.indexOf('\r');
        if (firstCr < 0) {
            return text.indexOf('\n') >= 0 ? LineEndings.LF : LineEndings.NONE;
        }
        boolean lf = text.lastIndexOf('\n', firstCr) >= 0;
        boolean crlf = false;
        boolean cr = false;
        for (int i = firstCr; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r') {
                if (i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    crlf = true;
                    i++;
                } else {
                    cr = true;
                }
            } else if (c == '\n') {
                lf = true;
            }
        }
        int kinds = (lf ? 1 : 0) + (crlf ? 1 : 0) + (cr ? 1 : 0);
        if (kinds > 1) {
            return LineEndings.MIXED;
        }
        return lf ? LineEndings.LF : crlf ? LineEndings.CRLF : LineEndings.CR;
    }

    private static TextEncoding detect(byte[] bytes) {
        if (startsWith(bytes, BOM_UTF_8)) {
            return TextEncoding.UTF_8_BOM;
        }
        if (startsWith(bytes, BOM_UTF_16LE)) {
            return TextEncoding.UTF_16LE;
        }
        if (startsWith(bytes, BOM_UTF_16BE)) {
            return TextEncoding.UTF_16BE;
        }
        return TextEncoding.UTF_8;
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bom(TextEncoding encoding) {
        return switch (encoding) {
            case UTF_8 -> new byte[0];
            case UTF_8_BOM -> BOM_UTF_8.clone();
            case UTF_16LE -> BOM_UTF_16LE.clone();
            case UTF_16BE -> BOM_UTF_16BE.clone();
        };
    }

    private static Charset charset(TextEncoding encoding) {
        return switch (encoding) {
            case UTF_8, UTF_8_BOM -> StandardCharsets.UTF_8;
            case UTF_16LE -> StandardCharsets.UTF_16LE;
            case UTF_16BE -> StandardCharsets.UTF_16BE;
        };
    }
}
