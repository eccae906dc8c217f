/**
 * The file tools' broker handlers over the {@code files} module, one pinned project folder each.
 */
@NullMarked
package dev.lomicontrol.files.tools;

import org.jspecify.annotations.NullMarked;
