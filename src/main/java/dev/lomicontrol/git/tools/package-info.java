/**
 * The git tools' broker handlers over the {@code git} module.
 */
@NullMarked
package dev.lomicontrol.git.tools;

import org.jspecify.annotations.NullMarked;
