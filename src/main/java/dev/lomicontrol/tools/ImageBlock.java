package dev.lomicontrol.tools;

/**
 * A PNG a tool answers (a browser screenshot, an image artifact read) travels from the broker to
 * the helper base64-encoded in the private field {@link #FIELD} of the answer's {@code data}; the
 * helper removes it and sends the bytes as a standard MCP {@code image} block ({@code image/png}),
 * so it never appears in {@code structuredContent} or the text block.
 */
public final class ImageBlock {

    /** The private field of an answer's data that carries the PNG. */
    public static final String FIELD = "_imagePngBase64";

    public static final String MIME_TYPE = "image/png";

    private ImageBlock() {}
}
