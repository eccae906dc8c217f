/**
 * Artifacts (SPEC §10): private, immutable copies of project files with their SHA-256, kept in the
 * broker's own directory under size, quota and count limits, owned by one caller, expiring after
 * 24 h and surviving restarts. Reads and exports re-hash the stored bytes; reads recheck the source.
 * Entry point: {@link dev.lomicontrol.artifacts.ArtifactStore}.
 */
@NullMarked
package dev.lomicontrol.artifacts;

import org.jspecify.annotations.NullMarked;
