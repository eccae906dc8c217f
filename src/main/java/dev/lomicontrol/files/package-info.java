/**
 * Safe access to files inside an approved project folder: every path resolves from the pinned
 * project root without following links, secret paths are invisible, writes are revision-checked and
 * atomic. Entry point: {@link dev.lomicontrol.files.ProjectFiles}.
 */
package dev.lomicontrol.files;
