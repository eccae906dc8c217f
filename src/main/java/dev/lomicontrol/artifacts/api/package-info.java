/**
 * The artifact tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.artifacts.api;

import org.jspecify.annotations.NullMarked;
