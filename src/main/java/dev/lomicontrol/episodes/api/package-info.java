/**
 * The episode tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.episodes.api;

import org.jspecify.annotations.NullMarked;
