/**
 * The Android tool declarations (answered HOST_UNQUALIFIED on this host).
 */
@NullMarked
package dev.lomicontrol.android.api;

import org.jspecify.annotations.NullMarked;
