/**
 * The terminal tools' broker handlers over the real-PTY engine of the {@code terminal} module.
 */
@NullMarked
package dev.lomicontrol.terminal.tools;

import org.jspecify.annotations.NullMarked;
