package dev.lomicontrol.editor;

/**
 * A completed save: the buffer revision now on disk (one past the requested revision when the save
 * added a final newline), the file's new disk revision, and how many bytes were written.
 */
public record SaveResult(String bufferRevision, String diskRevision, int bytes) {}
