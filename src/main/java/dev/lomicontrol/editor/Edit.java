package dev.lomicontrol.editor;

/**
 * One replacement in a buffer: the UTF-16 range {@code [fromUtf16, toUtf16)} becomes {@code insert}
 * (LF text, no CR or NUL). An insertion has {@code from == to}; a deletion an empty insert.
 */
public record Edit(int fromUtf16, int toUtf16, String insert) {}
