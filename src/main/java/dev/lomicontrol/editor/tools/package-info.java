/**
 * The editor tools' broker handlers over the shared buffers of the {@code editor} module.
 */
@NullMarked
package dev.lomicontrol.editor.tools;

import org.jspecify.annotations.NullMarked;
