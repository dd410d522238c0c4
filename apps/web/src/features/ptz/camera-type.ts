/** The camera type (spec §3: the channel's camera type) whose cells get the PTZ pad. */
export const PTZ_TYPE = 'ptz';
