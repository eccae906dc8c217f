/**
 * Safe access to files inside an approved project folder: every path resolves from the pinned
 * project root without following links, secret paths are invisible, writes are revision-checked and
 * atomic. Entry point: {@link dev.lomicontrol.files.ProjectFiles}.
 */
@NullMarked
package dev.lomicontrol.files;

import org.jspecify.annotations.NullMarked;
