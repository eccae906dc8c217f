/**
 * The shared editor buffers (SPEC §10 Editor): one LF-normalized text buffer per open project file,
 * identified by {@code documentId} and versioned by {@code bufferRevision = "<documentId>:<n>"}.
 * Edits are all-or-nothing batches against one exact revision; a save writes exactly one revision
 * back with the file's original encoding and line endings, compare-and-set on the disk revision.
 * Entry point: {@link dev.lomicontrol.editor.Documents}.
 */
@NullMarked
package dev.lomicontrol.editor;

import org.jspecify.annotations.NullMarked;
