package dev.lomicontrol.editor;

/** The buffer after an applied batch of edits: its new revision and length in UTF-16 units. */
public record EditResult(String bufferRevision, int lengthUtf16) {}
