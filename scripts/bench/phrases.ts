// Phrase pools for the benchmark's synthetic reviews. A review is composed from an opening, one
// job sentence per service, a sentence per technician, a few details and a closing, picked by the
// tone of its rating. Slots in braces are filled by the generator: {tech} (a technician's name or
// alias), {area}, {home}, {weather}, {season}, {material}, {days}, {first} (the author's first name).
// Only the pools named LEAK_* contain the word "leak": the generator decides which reviews mention
// it (about 5%), so the `query=leak` scenario has a known, moderate selectivity.

export type Tone = 'pos' | 'mixed' | 'neg';

export const HOMES = [
  'ranch',
  'two-story',
  'bungalow',
  'townhome',
  'split-level',
  'duplex',
  'craftsman',
  'tri-level',
  'cape cod',
  'mid-century ranch',
  'brick colonial',
  'farmhouse',
  'rental property',
  'corner lot house',
];

export const WEATHER = [
  'hail',
  'wind',
  'heavy snow',
  'spring storms',
  'a microburst',
  'golf-ball hail',
  'ice dams',
  'a freak October storm',
];

export const SEASONS = ['spring', 'summer', 'fall', 'winter', 'the busy season', 'storm season'];

export const MATERIALS = [
  'architectural shingles',
  'Class 4 impact-resistant shingles',
  'GAF Timberline shingles',
  'Owens Corning Duration shingles',
  'synthetic underlayment',
  'standing seam panels',
  'a TPO membrane',
  'an EPDM membrane',
];

export const FIRST_NAMES = [
  'Karen',
  'Doug',
  'Linda',
  'Brent',
  'Anita',
  'Chris',
  'Ted',
  'Priya',
  'Gary',
  'Heather',
  'Maria',
  'José',
  'Zoë',
  'Renée',
  'Aaron',
  'Beth',
  'Carlos',
  'Deepa',
  'Ethan',
  'Fatima',
  'Greg',
  'Hannah',
  'Ivan',
  'Julia',
  'Kenji',
  'Laura',
  'Mateo',
  'Nina',
  'Omar',
  'Paula',
  'Quinn',
  'Rosa',
  'Steve',
  'Tanya',
  'Umar',
  'Valerie',
  'Walt',
  'Ximena',
  'Yusuf',
  'Zach',
  'Bill',
  'Cheryl',
  'Dmitri',
  'Elena',
  'Frank',
  'Gwen',
  'Hector',
  'Irene',
  'Jamal',
  'Kristin',
  'Luis',
  'Megan',
  'Noah',
  'Olga',
  'Pete',
  'Rachel',
  'Scott',
  'Teresa',
  'Victor',
  'Wendy',
  'Björn',
  'Chloé',
  'Andrés',
  'Søren',
];

export const LAST_INITIALS = 'ABCDEFGHIJKLMNOPRSTVWYZ'.split('');

/** Towns per service area id of content/business.json (the review's `location`). */
export const AREA_TOWNS: Record<string, readonly string[]> = {
  lakewood: ['Lakewood', 'Wheat Ridge'],
  denver: ['Denver'],
  'arvada-westminster': ['Arvada', 'Westminster'],
  'golden-foothills': ['Golden', 'Evergreen', 'Morrison', 'Idaho Springs'],
  'littleton-englewood': ['Littleton', 'Englewood'],
  'aurora-centennial': ['Aurora', 'Centennial'],
};

export const OPENINGS: Record<Tone, readonly string[]> = {
  pos: [
    'We called Summit Ridge after {weather} went through {area} and could not be happier.',
    'Our {home} needed work before {season} and these folks delivered.',
    'Third time using this company and they are still the ones I recommend to neighbors.',
    'A friend in {area} recommended them and now I see why.',
    'I got four quotes and went with Summit Ridge because they actually explained the options.',
    'From the first phone call to the final walk-through this was painless.',
    'I manage a few rentals and this is the only roofer I trust with them now.',
    'After {weather} last {season} half the street needed roof work, and this crew stood out.',
    'Honestly one of the better contractor experiences we have had in twenty years of owning a home.',
    'We bought an older {home} and knew the roof would need attention sooner or later.',
    'Short version: show up on time, do clean work, charge what they quoted.',
    'My neighbor used them last {season}, so I called the same office.',
    'This was our first big project on the house and they made it easy.',
    'We were nervous about hiring a roofer after a bad experience elsewhere.',
    'Booked them online on a Sunday and had a call back first thing Monday.',
  ],
  mixed: [
    'Mixed feelings about this one.',
    'The work is fine but the process could use some polish.',
    'Good roof, so-so experience getting there.',
    'I would give three and a half stars if I could.',
    'Some things went well and some did not.',
    'We hired them after {weather} hit {area} and had a mostly okay time.',
    'Not a bad company, just not the smooth ride the reviews promised.',
    'Our {home} is in better shape now, but it took longer than it should have.',
  ],
  neg: [
    'I really wanted to like this company.',
    'Disappointed with how this job went.',
    'Writing this so other homeowners in {area} know what to expect.',
    'The quote looked great, the follow-through did not.',
    'Not the experience we were promised on the phone.',
    'We had {weather} damage and needed help fast, and that is not what we got.',
    'It pains me to write a bad review but here we are.',
    'Three weeks of chasing the office for what should have been a simple job.',
  ],
};

/** One job sentence per service id of content/business.json (no "leak" outside LEAK_JOBS). */
export const JOBS: Record<string, readonly string[]> = {
  'roof-replacement': [
    'They did a full tear-off on our {home} and put on {material}.',
    'The crew stripped the old roof down to the decking, replaced a few soft boards and installed {material}.',
    'New roof, new drip edge, new ridge vent, all done in {days} days.',
    'They replaced the whole roof on our {home}, including the ice-and-water shield along the eaves.',
    'We went with {material} for the replacement and it looks fantastic from the street.',
    'The re-roof took {days} days and they tarped everything each night in case of rain.',
    'Old three-tab shingles off, {material} on, and the attic ventilation finally fixed.',
  ],
  'roof-repair': [
    'They replaced a section of shingles that blew off in {weather}.',
    'A couple of cracked pipe boots and some lifted shingles were repaired in one visit.',
    'They fixed the flashing around our chimney and resealed the vents.',
    'Small repair job: missing ridge caps and a damaged valley on our {home}.',
    'The repair was quick, about two hours on the roof with photos before and after.',
    'They swapped out the rotted fascia board and reattached the shingles above it.',
  ],
  'storm-damage': [
    'After {weather} they did a full inspection and documented every bruised shingle for the insurance company.',
    'They met the adjuster on the roof and pointed out damage the adjuster had missed.',
    'The claim was approved for a full replacement after their storm report.',
    'They handled the paperwork with our insurer and the supplement for the extra decking.',
    'The storm damage inspection came with dozens of photos and chalk-circled hail hits.',
    'Hail dented the gutters and cracked shingles all over the south slope, and they restored all of it.',
  ],
  'gutter-installation': [
    'New seamless gutters with oversized downspouts, formed right in our driveway.',
    'They installed gutter guards and rehung the sagging run over the garage.',
    'The old gutters were pulling off the fascia, so they replaced the whole system.',
    'Seamless gutters in a color that matches the trim, and the water finally goes where it should.',
    'They re-pitched the gutters so the back patio no longer turns into a pond.',
  ],
  'skylight-installation': [
    'They replaced two fogged skylights in the kitchen with new venting units.',
    'A new skylight over the stairwell, with a proper flashing kit and a clean drywall finish.',
    'They swapped our old bubble skylight for a low-profile one that opens with a remote.',
    'The skylight install took a single day and the light in the hallway is wonderful.',
    'They installed a solar-powered venting skylight in the bathroom.',
  ],
  'roof-inspection': [
    'We needed an inspection for a home purchase and the written report came with photos.',
    'They did a pre-listing inspection and gave an honest estimate of the remaining roof life.',
    'Annual maintenance inspection: a few nails popped, sealant touched up, report in our inbox the same day.',
    'The inspection report was clear enough that our lender accepted it without questions.',
    'They walked the roof and the attic and explained what would need attention in the next few years.',
  ],
  'flat-roofing': [
    'Our flat porch roof got {material} and the seams were heat-welded on site.',
    'They replaced the low-slope roof over the addition and added tapered insulation.',
    'The garage has a flat roof that was ponding badly, and they re-sloped it and put on {material}.',
    'Modified bitumen on the back porch, with new edge metal and a scupper.',
    'They redid the flat roof on our small office building over a weekend.',
  ],
  'leak-repair': [
    'We had a leak over the kitchen that came back every time the snow melted.',
    'They traced a leak in the bedroom ceiling to a cracked pipe boot.',
    'Two other companies could not find our leak; they found it in under an hour.',
    'The leak turned out to be bad step flashing where the roof meets the siding.',
    'Emergency tarp the same evening for an active leak, then a permanent repair two days later.',
    'They found the leak by running a hose on the roof section by section until the drip started.',
  ],
};

/** A sentence that mentions "leak" for a review whose services do not include leak-repair. */
export const LEAK_ASIDES: readonly string[] = [
  'While they were up there they also spotted a small leak at the chimney cricket and sealed it.',
  'The old skylight had been leaking for a year and nobody had noticed until they pointed it out.',
  'They found a slow leak around the plumbing vent that explained the stain on our ceiling.',
  'A leak in the attic turned out to be condensation from a bad bath fan, which they rerouted.',
  'They even checked the valley where we had a leak two winters ago, and it is still dry.',
  'Our garage had a leak along the wall flashing that they fixed at no extra charge.',
  'No more leaks since the work was done, even through {weather}.',
];

export const LEAK_TITLES: Record<Tone, readonly string[]> = {
  pos: [
    'Found the leak nobody else could',
    'Leak fixed for good',
    'Finally a dry ceiling: leak solved',
    'Fast response to an active leak',
    'Leak repair done right',
  ],
  mixed: ['Leak fixed, communication lacking', 'Okay leak repair, slow scheduling'],
  neg: ['The leak came back', 'Paid twice for the same leak', 'Leak still not fixed'],
};

export const TECH_LINES: Record<Tone, readonly string[]> = {
  pos: [
    '{tech} was fantastic and explained everything before starting.',
    '{tech} sent photos of every problem spot so we could see it ourselves.',
    'Special thanks to {tech}, who answered every one of my questions patiently.',
    '{tech} ran a tight crew and the job site was spotless every evening.',
    'I would ask for {tech} again in a heartbeat.',
    '{tech} came back the next morning just to double-check one spot.',
    '{tech} was honest that we did not need the expensive option.',
    'Our dog loved {tech}, and so did we.',
    '{tech} kept us updated by text the whole time.',
    '{tech} clearly takes pride in the work.',
  ],
  mixed: [
    '{tech} did good work but was hard to reach once the job started.',
    '{tech} was friendly, though the crew showed up later than scheduled.',
    '{tech} explained things well, but a few nails were left in the yard.',
    'No complaints about {tech}; the office was another story.',
  ],
  neg: [
    '{tech} seemed rushed and did not walk us through anything.',
    'We were told {tech} would come back to finish, and that took two weeks.',
    '{tech} was polite, but the details were clearly not a priority.',
    'Nobody, including {tech}, returned my calls for days.',
  ],
};

export const DETAILS: Record<Tone, readonly string[]> = {
  pos: [
    'The final invoice matched the estimate to the dollar.',
    'They ran a magnet sweep twice and we have not found a single nail.',
    'Tarps over the flower beds, plywood against the siding, and everything cleaned up after.',
    'The office scheduled us within a week even during the busy season.',
    'The warranty paperwork arrived by email the same day.',
    'Fair price, and no pressure to add extras.',
    'They protected the landscaping and the air conditioner without being asked.',
    'Communication was excellent from the estimate to the final walk-through.',
    'Started at 7 sharp and finished ahead of schedule.',
    'The ridge line is straight and the shingles look great from the street.',
    'Our attic is noticeably cooler since they fixed the ventilation.',
    'They handled the city permit and the final inspection.',
  ],
  mixed: [
    'The start date slipped twice, which was frustrating.',
    'Cleanup was decent but we did find a few nails in the driveway.',
    'Price was a bit higher than the other quotes.',
    'It took two calls to get the final invoice corrected.',
    'The work looks good; the scheduling needs work.',
    'They were friendly but the crew left early a couple of days.',
  ],
  neg: [
    'The invoice had charges nobody had discussed with us.',
    'We found nails in the yard for weeks afterward.',
    'Nobody called back after the first visit.',
    'The crew showed up hours late and left before finishing.',
    'Getting a straight answer from the office was impossible.',
    'The quote took almost a month to arrive.',
    'They scratched the gutters and never mentioned it.',
  ],
};

export const CLOSINGS: Record<Tone, readonly string[]> = {
  pos: [
    'Highly recommend.',
    'Would hire again without thinking about it.',
    'Five stars, and well earned.',
    'Already passed their number to two neighbors.',
    'Thank you, Summit Ridge!',
    'If you are in {area}, call them first.',
    'Great company, great people.',
    'We will be back for the gutters next year.',
  ],
  mixed: [
    'I would probably use them again, with clearer expectations.',
    'Decent result overall.',
    'Worth a call, just stay on top of the schedule.',
    'Three stars feels fair.',
  ],
  neg: [
    'Look elsewhere.',
    'I cannot recommend them based on this experience.',
    'Maybe we were unlucky, but I will not be calling them again.',
    'Hoping the owner reads this and fixes the process.',
  ],
};

export const TITLES: Record<Tone, readonly string[]> = {
  pos: [
    'Tight crew, straight ridge line',
    'Honest and on time',
    'Best roofer in {area}',
    'Great experience from start to finish',
    'Clean job, fair price',
    'They made the insurance claim easy',
    'Would hire again',
    'Professional and friendly',
    'Beautiful new roof',
    'Quick, tidy and fairly priced',
    'Exceeded expectations',
    'Highly recommend Summit Ridge',
  ],
  mixed: [
    'Good roof, slow office',
    'Okay overall',
    'Fine work, scheduling issues',
    'Decent but not perfect',
  ],
  neg: [
    'Good repair, terrible follow-up',
    'Disappointing',
    'Not what we were promised',
    'Communication breakdown',
    'Would not use again',
  ],
};

export const REPLIES: Record<Tone, readonly string[]> = {
  pos: [
    'Thanks {first}! We are glad the crew took good care of your home. — Greg, owner',
    'Thank you for the kind words, {first}. We will pass them on to the team. — Greg, owner',
    '{first}, we appreciate you taking the time to write this. Enjoy the new roof! — Greg, owner',
    'Thanks for trusting us with your home, {first}. — Greg, owner',
  ],
  mixed: [
    '{first}, thank you for the honest feedback. We have since added a second scheduler so start dates hold. — Greg, owner',
    'Thanks {first}. You are right that we should have kept you better informed, and we are working on it. — Greg, owner',
  ],
  neg: [
    '{first}, you are right and I am sorry. Please call me directly so we can make this right. — Greg, owner',
    '{first}, this is not the standard we hold ourselves to. We have changed our callback process since. — Greg, owner',
    'I am sorry about the experience, {first}. I reviewed the job file and would like to discuss a refund of the extra charges. — Greg, owner',
  ],
};

/** Every pool except the LEAK_* ones: none of them may contain "leak" (checked by the generator). */
export const NON_LEAK_POOLS: readonly (readonly string[])[] = [
  ...Object.values(OPENINGS),
  ...Object.entries(JOBS)
    .filter(([service]) => service !== 'leak-repair')
    .map(([, pool]) => pool),
  ...Object.values(TECH_LINES),
  ...Object.values(DETAILS),
  ...Object.values(CLOSINGS),
  ...Object.values(TITLES),
  HOMES,
  WEATHER,
  SEASONS,
  MATERIALS,
  FIRST_NAMES,
  ...Object.values(AREA_TOWNS),
];
