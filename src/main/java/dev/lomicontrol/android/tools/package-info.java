/**
 * The Android tools' broker handlers.
 */
@NullMarked
package dev.lomicontrol.android.tools;

import org.jspecify.annotations.NullMarked;
