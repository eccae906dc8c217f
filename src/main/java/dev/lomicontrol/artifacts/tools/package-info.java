/**
 * The artifact tools' broker handlers over the {@code artifacts} module.
 */
@NullMarked
package dev.lomicontrol.artifacts.tools;

import org.jspecify.annotations.NullMarked;
