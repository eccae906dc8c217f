/**
 * The session attach/detach and episode board tools' broker handlers over the {@code episodes} module.
 */
@NullMarked
package dev.lomicontrol.episodes.tools;

import org.jspecify.annotations.NullMarked;
