// Words for the catalogue generator (scripts/lib/product-generator.ts): ~40 niches, each a table of
// nouns -> the attributes (adjectives, materials) that fit THAT noun, as sellers write them in real
// listings, brand-less. "Vegan Eyelash Curler" or "LED Slippers" cannot happen: an attribute is only
// ever drawn from its own noun's list (docs/decisions/028). The broad words ("portable", "set") are
// added by the generator at a known rate (BROAD_WORDS) to the nouns they fit, so a search benchmark can
// rely on ~10% of the catalogue matching each.
//
// What a description claims and what a listing is tagged with belong to the product TYPE, not to its
// niche (issue 25: "A leash that calms anxious pets during storms", every pet product tagged "cats" and
// "pet toys"): each group of nouns lists its own benefits and tags (docs/decisions/056).
//
// Table syntax (one string per niche, kept compact so the whole catalogue reads on a few screens):
//   "Noun A|Noun B: Attr1|Attr2 @ Audience1|Audience2 # benefit 1|benefit 2 ~ tag1|tag2; Noun C: Attr3 # benefit 3"
// groups are separated by ";", nouns of a group share its attributes, (optional, after "@") its
// audiences, else the niche's, its benefits (after "#", each completes "A <noun> that …", required) and
// (optional, after "~") the tags of that type, added to the niche's general tags. A noun ending in "*"
// may be called "Portable", one ending in "+" is sold in sets; an attribute ending in "!" is one of the
// rare words (a few products in 10,000 each). A niche's audience tags map an audience to the tags it
// implies ("Kittens" -> "cats"), so "for Kittens" is tagged for cats and nothing else is.

export interface NounVocabulary {
  noun: string;
  /** Attributes that fit this noun (none shares a word with it: the generator checks). */
  attributes: string[];
  /** Rare attributes that fit it (RARE_WORDS). */
  rare: string[];
  audiences: string[];
  portable: boolean;
  sets: boolean;
  /** Completes "A <noun> that …" in descriptions: only what THIS type of product does. */
  benefits: string[];
  /** Tags of this type of product ("dog walking" for a leash), added to the niche's general tags. */
  tags: string[];
}

export interface NicheVocabulary {
  slug: string;
  /** Median selling price in dollars (prices are log-normal around it). */
  price: number;
  nouns: NounVocabulary[];
  /** Tags true of every product of the niche ("pet care"); a type's own tags come from its noun. */
  tags: string[];
  /** Tags an audience implies ("Kittens" -> ["cats"]); an audience not listed implies none. */
  audienceTags: Record<string, string[]>;
}

const list = (text: string | undefined) =>
  (text ?? "")
    .split("|")
    .map((s) => s.trim())
    .filter(Boolean);

function n(slug: string, price: number, table: string, audiences: string, tags: string, audienceTags = ""): NicheVocabulary {
  const nicheAudiences = list(audiences);
  const nouns: NounVocabulary[] = [];
  for (const group of table.split(";")) {
    const [withBenefits, tagPart] = group.split("~");
    const [withAudiences, benefitPart] = withBenefits.split("#");
    const [nounPart, rest = ""] = withAudiences.split(":");
    const [attributePart, audiencePart] = rest.split("@");
    const attributes = list(attributePart);
    const benefits = list(benefitPart);
    if (benefits.length === 0) throw new Error(`product-vocabulary: ${slug}: "${nounPart.trim()}" has no benefits`);
    for (const raw of list(nounPart)) {
      const noun = raw.replace(/[*+]+$/, "");
      nouns.push({
        noun,
        attributes: attributes.filter((a) => !a.endsWith("!")),
        rare: attributes.filter((a) => a.endsWith("!")).map((a) => a.slice(0, -1)),
        audiences: audiencePart === undefined ? nicheAudiences : list(audiencePart),
        portable: /\*[+]?$|\+\*$/.test(raw),
        sets: /\+[*]?$|\*\+$/.test(raw),
        benefits,
        tags: list(tagPart),
      });
    }
  }
  const implied: Record<string, string[]> = {};
  for (const entry of list(audienceTags)) {
    const [audience, implies = ""] = entry.split("=");
    implied[audience.trim()] = implies.split(",").map((t) => t.trim()).filter(Boolean);
  }
  return { slug, price, nouns, tags: list(tags.replace(/;/g, "|")), audienceTags: implied };
}

export const NICHES: NicheVocabulary[] = [
  n("pets", 24,
    "Slicker Brush|Grooming Glove: Self-Cleaning|Gentle|Quiet|Rechargeable # keeps shedding off your sofa|lifts loose fur in a few strokes ~ grooming; " +
    "Nail Grinder: Self-Cleaning|Gentle|Quiet|Rechargeable # files claws smooth without clipping too short|trims nails at home without a trip to the groomer ~ grooming; " +
    "Lick Mat|Slow Feeder Bowl: Anti-Slip|Silicone|Dishwasher-Safe|Interactive # turns mealtime into a game|slows down fast eaters ~ feeding; " +
    "Cooling Mat*: Washable|Foldable|Gel # keeps pets cool on hot days|cools without water or electricity ~ summer; " +
    "Water Fountain: Quiet|Filtered|Stainless Steel @ Cats|Kittens|Small Dogs # keeps water fresh and moving|tempts picky drinkers to drink more ~ feeding; " +
    "Chew Toy+: Chew-Proof|Interactive|Squeaky|Rubber @ Puppies|Small Dogs|Large Dogs # stands up to heavy chewers|keeps a bored dog busy for hours ~ dogs|pet toys; " +
    "Harness: No-Pull|Reflective|Adjustable|Padded @ Small Dogs|Large Dogs|Puppies # spreads the pull across the chest, not the neck|slips on and off in seconds ~ dogs|dog walking; " +
    "Leash: No-Pull|Reflective|Adjustable|Padded @ Small Dogs|Large Dogs|Puppies # gives you a firm grip on every walk|keeps your dog close at busy crossings ~ dogs|dog walking; " +
    "Litter Mat: Washable|Honeycomb|Waterproof @ Cats|Kittens # traps litter before it leaves the box|keeps litter off your floors ~ cats|litter; " +
    "Calming Bed: Orthopedic|Washable|Donut|Sherpa! # calms anxious pets during storms|gives a nervous pet a snug place to settle ~ pet beds; " +
    "Treat Pouch*: Clip-On|Silicone|Waterproof @ Puppies|Small Dogs|Large Dogs # keeps treats at hand during training|clips on for hands-free walks ~ dogs|dog training; " +
    "Car Seat Cover: Waterproof|Quilted|Scratch-Proof @ Large Dogs|Small Dogs # keeps fur and mud off the back seat|protects seats from claws ~ dogs|car travel; " +
    "Cat Toy|Feather Wand Toy: Interactive|Catnip|Plush|Refillable @ Cats|Kittens # brings out the hunter in an indoor cat|keeps a bored cat busy for hours ~ cats|pet toys|cat toys; " +
    "Scratching Post|Cat Tree: Sisal|Carpeted|Multi-Level @ Cats|Kittens # saves your sofa from claws|gives an indoor cat somewhere to climb ~ cats|cat furniture",
    "Dogs and Cats|Small Dogs|Large Dogs|Cats|Puppies|Kittens", "pet care;pet supplies",
    "Dogs and Cats=dogs,cats|Small Dogs=dogs|Large Dogs=dogs|Puppies=dogs|Cats=cats|Kittens=cats"),
  n("kitchen", 22,
    "Garlic Press|Can Opener|Herb Scissors: Stainless Steel|Rustproof|One-Handed|Heavy-Duty # takes the effort out of prep|cleans up in seconds ~ kitchen gadgets; " +
    "Vegetable Chopper: Multi-Blade|Dishwasher-Safe|Manual # cuts prep time in half|dices a whole onion in seconds ~ kitchen gadgets|meal prep; " +
    "Spice Rack|Pan Organizer: Space-Saving|Bamboo|Wall-Mounted|Expandable # keeps counters clear|puts everything within reach ~ kitchen organization; " +
    "Oil Sprayer: Glass|Refillable|Leak-Proof # coats a pan with a fine mist|cuts the oil you cook with ~ healthy cooking; " +
    "Knife Sharpener: Diamond|Ceramic|Handheld # brings dull knives back to sharp|sharpens a blade in a few pulls ~ knives; " +
    "Salad Spinner: Collapsible|Dishwasher-Safe # dries greens in seconds|folds flat in a drawer ~ meal prep; " +
    "Butter Dish: Ceramic|Glass|Covered|Marbled! # keeps butter soft and spreadable|keeps butter fresh on the counter ~ tableware; " +
    "Measuring Spoons+: Stainless Steel|Silicone|Magnetic # makes every recipe come out right|nests together in a drawer ~ kitchen gadgets|baking; " +
    "Egg Separator: Stainless Steel|Silicone|Magnetic # separates yolks in one pour|cleans up in seconds ~ kitchen gadgets",
    "Home Cooks|Small Kitchens|Meal Prep|Busy Families", "kitchen;cooking"),
  n("bakeware", 19,
    "Silicone Baking Mat+|Donut Mold+: Non-Stick|Food-Grade|Reusable|Heat-Resistant # releases every bake cleanly|replaces parchment paper ~ silicone bakeware; " +
    "Cake Pan|Muffin Tray: Non-Stick|Springform|Carbon Steel|Dishwasher-Safe # bakes evenly from edge to centre|releases every bake cleanly ~ bakeware; " +
    "Cookie Cutter+|Piping Bag+: Stainless Steel|Reusable|Embossed # gives bakery-style results at home|makes decorating easy ~ decorating; " +
    "Bread Proofing Basket: Rattan|Round|Oval @ Home Bakers|Sourdough Lovers # gives sourdough its shape and crust|lets dough rise evenly ~ sourdough|bread; " +
    "Rolling Pin: Wooden|Marble|Adjustable|Embossed # rolls dough to an even thickness|gives bakery-style results at home ~ pastry; " +
    "Cooling Rack|Pastry Brush: Stainless Steel|Stackable|Silicone # gives bakery-style results at home|cleans up in seconds ~ bakeware",
    "Home Bakers|Sourdough Lovers|Kids Baking", "baking;desserts"),
  n("coffee-tea", 26,
    "Pour-Over Kettle: Gooseneck|Electric|Temperature-Control # pours with barista control|heats water to the right temperature ~ pour-over; " +
    "Milk Frother*: Handheld|Rechargeable|Electric # froths milk in seconds|makes cafe-style lattes at home ~ latte; " +
    "Cold Brew Maker|French Press: Borosilicate|Glass|Double-Wall|Leak-Proof # brews smoother coffee|makes cafe-quality drinks at home ~ coffee brewing; " +
    "Tea Infuser+: Stainless Steel|Silicone|Fine-Mesh @ Tea Drinkers # brews loose-leaf tea without the mess|keeps leaves out of your cup ~ tea|loose leaf; " +
    "Coffee Scale|Coffee Grinder: Digital|Burr|Rechargeable|Manual @ Coffee Lovers|Home Baristas # makes every cup taste the same|brews smoother coffee ~ coffee brewing; " +
    "Espresso Tamper: Calibrated|Stainless Steel|Spring-Loaded @ Home Baristas # packs an even puck every time|pulls better espresso shots ~ espresso; " +
    "Matcha Whisk: Bamboo|Handmade @ Tea Drinkers # whisks matcha smooth and frothy|makes cafe-quality matcha at home ~ matcha|tea; " +
    "Drip Stand: Wooden|Adjustable|Ceramic # holds a pour-over steady over your cup|makes cafe-quality drinks at home ~ pour-over",
    "Coffee Lovers|Tea Drinkers|Home Baristas", "coffee;morning routine"),
  n("drinkware", 21,
    "Tumbler*|Water Bottle*|Travel Mug*: Insulated|Leak-Proof|Stainless Steel|Vacuum-Sealed|Motivational # keeps drinks cold for 24 hours|fits every cup holder ~ tumblers|bottles; " +
    "Wine Glass+|Beer Mug+|Glass Jar+: Stemless|Shatterproof|Stackable|Frosted @ Office|Road Trips # makes every drink feel special|stacks neatly in the cupboard ~ glassware; " +
    "Shaker Bottle*: Leak-Proof|Protein @ Gym # mixes protein without clumps|never leaks in a gym bag ~ bottles|protein; " +
    "Straw Cup|Kids Cup: Spill-Proof|Shatterproof|Stackable @ Kids|Road Trips # survives being dropped|keeps drinks off the floor ~ kids cups",
    "Gym|Office|Kids|Road Trips", "hydration;drinkware"),
  n("beauty", 27,
    "Makeup Brush+: Vegan|Soft-Bristle|Synthetic|Cruelty-Free # gives a flawless finish|blends foundation without streaks ~ makeup; " +
    "Eyelash Curler|Brow Stencil: Heated|Stainless Steel|Reusable # gives salon results at home|takes seconds each morning ~ lashes|brows; " +
    "Makeup Organizer: Rotating|Acrylic|Clear # keeps your vanity tidy|shows every product at a glance ~ makeup storage; " +
    "Beauty Blender+: Latex-Free|Vegan|Reusable # gives a flawless finish|blends foundation without streaks ~ makeup; " +
    "Nail Drill: Electric|Rechargeable|Professional|Quiet # gives salon nails at home|shapes gel nails in minutes ~ nails; " +
    "Lash Kit: Magnetic|Reusable|Cruelty-Free # gives fuller lashes in minutes|goes on without glue mess ~ lashes; " +
    "Vanity Mirror: Lighted|Magnifying|Tri-Fold # shows every detail in true light|makes precise makeup easy ~ mirrors; " +
    "Makeup Bag*: Travel-Size|Waterproof|Quilted # keeps makeup organised on the go|fits a whole routine ~ makeup storage|travel; " +
    "Gua Sha Stone: Rose Quartz|Jade|Obsidian! # sculpts and depuffs in a few strokes|turns skincare into a ritual ~ gua sha",
    "Beginners|Makeup Artists|Sensitive Skin", "beauty"),
  n("skincare", 29,
    "Face Roller|Ice Roller: Rose Quartz|Jade|Cooling|Depuffing # reduces puffiness in minutes|cools and soothes tired skin ~ face roller; " +
    "Facial Steamer|Pore Vacuum: Ionic|Nano|Rechargeable # opens and clears pores|leaves skin glowing ~ pores; " +
    "Sheet Mask+|Eye Patch+: Hydrating|Cooling|Collagen|Depuffing # leaves skin glowing|hydrates in fifteen minutes ~ masks; " +
    "Blackhead Remover: Stainless Steel|Gentle|Ultrasonic # unclogs pores gently|clears blackheads without squeezing ~ pores|blackheads; " +
    "Face Cleansing Brush: Silicone|Sonic|Waterproof|Rechargeable # leaves skin glowing|gives a deeper clean than hands alone ~ skincare tools; " +
    "Microcurrent Wand: Silicone|Sonic|Waterproof|Rechargeable # leaves skin glowing|lifts and tones in minutes a day ~ skincare tools; " +
    "Derma Roller: Titanium|Microneedle # helps serums absorb|smooths skin texture over time ~ skincare tools",
    "Oily Skin|Dry Skin|Sensitive Skin|Men", "skincare;self care"),
  n("hair-care", 31,
    "Hair Dryer Brush|Hair Straightener|Curling Wand: Ionic|Ceramic|Tourmaline|Cordless|Anti-Frizz # gives salon styling at home|tames frizz while styling ~ hairstyling|hot tools; " +
    "Heatless Curler|Satin Bonnet|Silk Scrunchie+: Silk|Satin|Overnight|Sherpa! # is gentle on hair overnight|tames frizz overnight ~ heatless|overnight hair; " +
    "Scalp Massager*: Silicone|Soft-Bristle|Wet # lifts build-up as you shampoo|makes wash day easier ~ hair tools|scalp care; " +
    "Detangling Brush*: Silicone|Soft-Bristle|Wet # glides through knots without pulling|makes wash day easier ~ hair tools; " +
    "Hair Clip+: Claw|Matte|Non-Slip # holds thick hair all day|puts hair up in seconds ~ hair accessories; " +
    "Hair Towel: Microfiber|Quick-Dry|Anti-Frizz # cuts drying time|tames frizz while hair dries ~ hair drying",
    "Curly Hair|Thick Hair|Fine Hair|Kids", "hair care"),
  n("fitness", 34,
    "Resistance Bands*+: Fabric|Latex|Heavy-Duty|Adjustable # turns any room into a gym|builds strength in minutes a day ~ strength training; " +
    "Ab Roller|Push-Up Board: Non-Slip|Foldable|Wide-Wheel # builds a stronger core|builds strength in minutes a day ~ core workout; " +
    "Jump Rope*: Speed|Weighted|Cordless|Smart # burns calories in short sessions|turns any room into a gym ~ cardio; " +
    "Kettlebell|Ankle Weights+: Adjustable|Cast Iron|Neoprene|Heavy-Duty # builds strength in minutes a day|turns any room into a gym ~ strength training|weights; " +
    "Grip Strengthener*: Adjustable|Silicone # builds grip strength anywhere|fits in a desk drawer ~ strength training; " +
    "Pull-Up Bar: Doorway|Heavy-Duty|No-Screw # fits a doorway without drilling|builds upper-body strength at home ~ strength training; " +
    "Balance Board: Wooden|Non-Slip # trains balance and core together|turns standing time into a workout ~ balance; " +
    "Massage Gun*: Quiet|Deep Tissue|Rechargeable @ Athletes|Home Workouts # speeds up recovery after workouts|melts away knots in minutes ~ recovery; " +
    "Weighted Vest: Adjustable|Breathable|Reflective # adds resistance to every walk|makes bodyweight workouts harder ~ weights",
    "Home Workouts|Beginners|Athletes|Seniors", "fitness;workout"),
  n("yoga", 28,
    "Yoga Mat*: Eco-Friendly|Cork|Extra-Thick|Non-Slip|Alignment-Line # grips even in hot yoga|cushions sensitive knees ~ yoga mats; " +
    "Yoga Block+|Yoga Wheel: Cork|Foam|Eco-Friendly # deepens every stretch|brings the floor closer in hard poses ~ yoga props; " +
    "Meditation Cushion: Buckwheat|Velvet|Round # keeps your back straight as you sit|makes long sits comfortable ~ meditation; " +
    "Stretching Strap*: Cotton|Sweat-Absorbent|Non-Slip # deepens every stretch|helps you hold a pose longer ~ yoga props; " +
    "Yoga Towel: Cotton|Sweat-Absorbent|Non-Slip # grips even in hot yoga|soaks up sweat as you flow ~ hot yoga; " +
    "Foam Roller*: High-Density|Textured|Soft # eases tight muscles after practice|rolls out knots before a session ~ recovery; " +
    "Balance Pad: High-Density|Textured|Soft # trains balance at home|cushions knees in kneeling poses ~ balance",
    "Beginners|Hot Yoga|Pilates|Stretching", "yoga;mindfulness"),
  n("home-decor", 32,
    "Wall Shelf|Bookends: Floating|Wooden|Rustic|Metal|Minimalist # shows off books and plants|makes any room feel finished ~ shelves; " +
    "Throw Pillow Cover+: Boho|Velvet|Linen|Sherpa! # refreshes a sofa in minutes|adds warmth to any room ~ pillows|textiles; " +
    "Wall Art+|Picture Frame+: Boho|Minimalist|Framed|Mid-Century|Origami! # adds warmth to bare walls|looks far pricier than it is ~ wall decor; " +
    "Vase|Candle Holder: Ceramic|Glass|Minimalist|Terrazzo! # makes any room feel finished|looks far pricier than it is ~ accents; " +
    "Table Runner|Tapestry: Boho|Macrame|Linen # adds texture to a plain room|makes any room feel finished ~ textiles; " +
    "Wall Mirror: Round|Arched|Rattan # makes a small room feel bigger|adds warmth to bare walls ~ mirrors|wall decor; " +
    "Faux Plant: Potted|Hanging|Lifelike # adds green without the watering|looks real from across the room ~ plants",
    "Living Room|Bedroom|Apartment|Nursery", "home decor;interior"),
  n("lighting", 29,
    "Sunset Lamp|Moon Lamp: Dimmable|Touch|Color-Changing|Rechargeable # creates a calm mood at night|transforms a room in one click ~ mood lighting; " +
    "Night Light+|Motion Sensor Light+: Plug-In|Motion-Activated|Warm White|Rechargeable|LED # lights the way without waking anyone|turns on only when needed ~ night light; " +
    "Strip Lights|Fairy Lights: LED|Color-Changing|Remote-Controlled|Solar # transforms a room in one click|creates a calm mood at night ~ led lights|room decor; " +
    "Desk Lamp|Floor Lamp: LED|Dimmable|Adjustable|Touch|Arc # lights your work without glare|puts light where you need it ~ lamps; " +
    "Galaxy Projector: Remote-Controlled|Rotating # fills the ceiling with stars|creates a calm mood at night ~ projector|room decor; " +
    "Neon Sign: LED|Custom|Wall-Mounted # makes any wall a statement|transforms a room in one click ~ neon|room decor; " +
    "Salt Lamp: Himalayan!|Dimmable # gives a warm amber glow|creates a calm mood at night ~ lamps",
    "Bedroom|Kids Room|Gaming Setup|Closet", "lighting;ambient light"),
  n("smart-home", 39,
    "Smart Plug+|Smart Bulb+|Smart Switch: Wi-Fi|Voice-Controlled|App-Controlled|Energy-Monitoring # works with voice assistants|cuts your energy bill ~ home automation; " +
    "Video Doorbell|Pet Camera|Baby Monitor: Wi-Fi|Night Vision|Battery-Powered|Two-Way Audio # lets you check home from anywhere|sends an alert to your phone ~ camera|security; " +
    "Door Sensor+|Temperature Sensor+: Wireless|Battery-Powered # alerts your phone the moment something changes|installs in seconds without wiring ~ sensors|security; " +
    "Smart Lock: Keyless|Fingerprint|Wi-Fi # opens without keys|lets guests in from anywhere ~ security; " +
    "Robot Vacuum: Self-Emptying|App-Controlled|Slim # cleans the floors while you are out|slides under beds and sofas ~ cleaning",
    "Apartments|Renters|Families", "smart home;wifi"),
  n("phone-accessories", 18,
    "Phone Case|Wallet Case: Shockproof|MagSafe-Compatible|Clear|Leather # survives drops from head height|keeps your phone looking new ~ phone case; " +
    "Phone Stand*|Car Mount: Foldable|Magnetic|Adjustable|Aluminum # keeps your phone at eye level|holds your phone steady hands-free ~ phone holder; " +
    "Phone Grip: Foldable|Magnetic|Adjustable|Aluminum # makes one-handed use secure|props your phone up for videos ~ phone holder; " +
    "Screen Protector+: Tempered Glass|Privacy|Matte # saves your screen from scratches|goes on without bubbles ~ screen protection; " +
    "Charging Cable+: Braided|Fast-Charging|USB-C # charges twice as fast|survives years of bending ~ charging; " +
    "Selfie Stick*: Bluetooth|Extendable|Wide-Angle # fits the whole group in the shot|shoots from a button in your hand ~ phone photography; " +
    "Camera Lens Kit*: Bluetooth|Extendable|Wide-Angle # takes better photos with your phone|clips on over the camera in seconds ~ phone photography; " +
    "Phone Lanyard: Crossbody|Adjustable|Braided # keeps your phone hands-free|means you never set your phone down and forget it ~ phone holder",
    "iPhone|Android|Content Creators", "phone;mobile accessories"),
  n("tech-gadgets", 33,
    "Power Bank*: Magnetic|Solar|Fast-Charging|Slim # keeps devices charged all day|fits in a pocket ~ charging; " +
    "Bluetooth Tracker+|Key Finder+: Waterproof|Loud|Rechargeable # finds lost keys in seconds|rings from your phone ~ trackers; " +
    "Mini Projector*|Pocket Printer*: Wireless|Rechargeable|Bluetooth # fits in a pocket|works straight from your phone ~ gadgets; " +
    "Label Maker*: Bluetooth|Handheld|Rechargeable # labels a whole pantry in an afternoon|prints straight from your phone ~ organization; " +
    "Desk Fan: USB|Quiet|Rechargeable|Clip-On # keeps you cool at your desk|runs quietly all day ~ cooling; " +
    "Digital Caliper: Stainless Steel|Precision # measures to a hundredth of a millimetre|reads out at a glance ~ measuring; " +
    "Smart Ring: Titanium|Waterproof # tracks sleep and steps without a watch|keeps going for days on a charge ~ wearables; " +
    "USB Hub: Aluminum|Powered|USB-C # adds ports to any laptop|keeps devices charged all day ~ laptop accessories",
    "Travelers|Students|Remote Workers", "gadgets;tech"),
  n("audio", 36,
    "Earbuds|Bone Conduction Headphones: True Wireless|Noise-Cancelling|Waterproof|Open-Ear # stays put through every run|plays all day on one charge ~ headphones; " +
    "Bluetooth Speaker*: Waterproof|Bass-Boosted|Rugged|Mini # lasts a whole weekend on one charge|sounds bigger than it looks ~ speakers; " +
    "Sleep Headphones: Soft|Ultra-Thin|Washable @ Side Sleepers # stays comfortable when you sleep on your side|blocks out a snoring partner ~ headphones|sleep; " +
    "Headphone Stand: Wooden|Aluminum|RGB # gives headphones a home on the desk|tidies the whole desk ~ desk setup; " +
    "Karaoke Microphone*: Wireless|Bluetooth @ Parties|Kids # turns any room into a karaoke night|plays music and your voice together ~ karaoke; " +
    "Record Player|Soundbar: Retro|Bluetooth|Vintage|Compact # fills the room with sound|sounds bigger than it looks ~ speakers",
    "Runners|Side Sleepers|Parties|Gamers", "audio;music"),
  n("gaming", 35,
    "Controller Grip+|Thumb Grips+: Ergonomic|Non-Slip|Silicone # keeps you comfortable through long sessions|improves your aim ~ controller; " +
    "Gaming Mouse Pad|Desk Mat: RGB|Extended|Stitched-Edge # gives every swipe a smooth glide|tidies the whole desk ~ desk setup; " +
    "Headset Stand: RGB|Aluminum # tidies the whole desk|gives your headset a home ~ desk setup; " +
    "Cooling Pad: Quiet|RGB|Adjustable # keeps a gaming laptop cool|stops throttling in long sessions ~ laptop; " +
    "Controller Charger: Dual|Fast-Charging|Magnetic @ Console Gamers # keeps controllers charged|charges two controllers at once ~ controller|charging; " +
    "Cable Organizer+: Magnetic|Adhesive|Silicone # tidies the whole desk|keeps cables from falling behind the desk ~ desk setup; " +
    "Gaming Chair Cushion: Memory Foam|Anti-Fatigue # keeps you comfortable through long sessions|eases pressure on your back ~ comfort",
    "PC Gamers|Console Gamers|Streamers", "gaming;gamer"),
  n("office", 27,
    "Laptop Stand*|Monitor Riser: Ergonomic|Height-Adjustable|Aluminum|Foldable # fixes your posture at the desk|lifts the screen to eye level ~ ergonomics; " +
    "Desk Organizer|Desk Drawer|Document Holder: Bamboo|Mesh|Under-Desk|Clip-On # clears clutter from your workspace|keeps papers where you can find them ~ desk organization; " +
    "Footrest|Wrist Rest|Lumbar Pillow: Memory Foam|Ergonomic|Gel # makes long days at the desk comfortable|eases strain on long calls ~ ergonomics; " +
    "Cable Clips+: Adhesive|Silicone|Magnetic # keeps cables from falling behind the desk|clears clutter from your workspace ~ desk organization; " +
    "Whiteboard: Magnetic|Glass|Desktop # keeps your to-do list in sight|wipes clean without ghosting ~ planning",
    "Home Office|Remote Workers|Students", "office;work from home"),
  n("stationery", 14,
    "Planner|Notebook+|Bullet Journal|Desk Calendar: Undated|Dotted|Leather|Hardcover|Aesthetic|Marbled!|Origami! # keeps your week on track|makes planning feel calm ~ planner|journaling; " +
    "Gel Pens+|Highlighters+|Fountain Pen: Pastel|Erasable|Refillable|Fine-Tip # writes smoothly on any paper|makes note-taking fun ~ pens; " +
    "Washi Tape+|Sticky Notes+|Sticker Book: Pastel|Aesthetic|Transparent # makes note-taking fun|dresses up any journal page ~ journaling",
    "Students|Journaling|Teachers", "stationery;study"),
  n("baby", 29,
    "Baby Carrier: Ergonomic|Breathable|Hands-Free # frees both hands|keeps a baby close and calm ~ babywearing; " +
    "Bottle Warmer: Fast|BPA-Free|Travel # makes night feeds easier|warms a bottle in minutes ~ feeding; " +
    "Teether+: Silicone|BPA-Free|Wooden|Soothing # soothes sore gums|is easy for little hands to hold ~ teething; " +
    "Pacifier Clip+: Silicone|BPA-Free|Wooden|Soothing # keeps the pacifier off the floor|clips to any outfit ~ pacifiers; " +
    "White Noise Machine*: Soothing|Rechargeable # soothes a fussy baby|helps a baby sleep longer ~ baby sleep; " +
    "Baby Monitor Mount|Bath Seat: Universal|Non-Slip # keeps a baby safe and in view|gives a parent one less thing to hold ~ baby safety; " +
    "Bib+|Swaddle+|Nursing Pillow: Organic Cotton|Muslin|Waterproof|Breathable|Sherpa! # makes feeds and naps easier|is soft on newborn skin ~ feeding|nursery; " +
    "Diaper Caddy: Felt|Foldable|Waterproof # keeps changing essentials in one place|moves from room to room ~ diapering",
    "Newborns|Toddlers|New Moms|Twins", "baby;parenting"),
  n("kids-toys", 21,
    "Busy Board|Montessori Toy|Puzzle+|Building Blocks+: Wooden|Educational|Sensory|Montessori|STEM # keeps little hands busy for hours|teaches while they play ~ educational toys; " +
    "Magnetic Tiles+: Educational|Transparent|STEM # teaches while they play|builds anything a child imagines ~ educational toys|building toys; " +
    "Drawing Tablet*: LCD|Erasable|Screen-Free # is screen-free fun|wipes clean with one button ~ drawing; " +
    "Bubble Machine*: Automatic|Rechargeable # fills the garden with bubbles|keeps a party of kids busy ~ outdoor toys; " +
    "Kinetic Sand+: Sensory|Glow-in-the-Dark # keeps little hands busy for hours|never dries out ~ sensory play; " +
    "Play Tent: Foldable|Castle|Kaleidoscope! # makes a hideaway in any room|folds flat after play ~ pretend play; " +
    "Ride-On Toy: Wooden|Balance # builds balance before a first bike|is screen-free fun ~ ride-on",
    "Toddlers|Kids 3-5|Kids 6-10|Preschoolers", "toys;gifts for kids"),
  n("outdoor", 31,
    "Hammock*|Picnic Blanket*: Waterproof|Quick-Dry|Foldable|Parachute Nylon # turns the backyard into a retreat|packs away in seconds ~ relaxing; " +
    "Bug Zapper: Solar-Powered|Rechargeable|Weatherproof|LED # keeps bugs away all evening|works without sprays ~ bug control; " +
    "Solar Lantern+|Patio Umbrella Light: Solar-Powered|Rechargeable|Weatherproof|LED # lights the patio without wiring|charges itself in the sun ~ outdoor lighting; " +
    "Outdoor Cushion+|Fire Pit Cover: Weatherproof|UV-Resistant|Heavy-Duty # stands up to sun and rain|keeps outdoor furniture looking new ~ patio furniture; " +
    "Hose Nozzle: High-Pressure|Adjustable|Metal # waters the garden or washes the car|has a spray for every job ~ watering; " +
    "Bird Feeder: Squirrel-Proof|Hanging|Window # brings birds to your window|keeps squirrels off the seed ~ birds; " +
    "Windproof Lighter*: Rechargeable|Arc # lights a grill in the wind|never needs butane ~ grilling",
    "Backyard|Patio|Balcony|Garden Parties", "outdoor;backyard"),
  n("camping", 34,
    "Camping Lantern*|Tent Light*|Headlamp: Rechargeable|Waterproof|Collapsible|Solar # lights the whole campsite|keeps shining through a wet night ~ camp lighting; " +
    "Sleeping Pad|Camping Hammock|Camp Chair: Ultralight|Inflatable|Compact|Foldable # weighs almost nothing in your pack|makes a night outdoors comfortable ~ camp comfort; " +
    "Camping Stove*|Water Filter*: Compact|Ultralight|Collapsible # works anywhere off-grid|weighs almost nothing in your pack ~ backcountry; " +
    "Cooler Bag*: Insulated|Leak-Proof|Soft-Sided # keeps food cold all day|folds flat when empty ~ coolers; " +
    "Multi-Tool*: Stainless Steel|Pocket # handles every small fix at camp|fits in a pocket ~ tools",
    "Backpackers|Car Camping|Hikers|Survival Kits", "camping;hiking"),
  n("fishing", 27,
    "Fishing Lure+: Lifelike|Saltwater|Floating|Jointed # catches fish when nothing else works|swims like live bait ~ lures; " +
    "Tackle Box*: Waterproof|Compact|Aerated # keeps tackle organized|keeps lures dry on the water ~ tackle; " +
    "Bait Bucket: Waterproof|Compact|Aerated # keeps bait lively all day|carries bait without spills ~ bait; " +
    "Fishing Line: Braided|Saltwater|Monofilament # casts further without tangles|holds a big fish ~ fishing line; " +
    "Rod Holder: Stainless Steel|Aluminum|Adjustable # frees your hands on the water|holds a rod steady on a kayak or bank ~ tackle; " +
    "Fishing Pliers: Stainless Steel|Aluminum|Adjustable # unhooks a fish in seconds|cuts braided line cleanly ~ tackle; " +
    "Fish Finder*: Wireless|Sonar|Castable # shows where the fish are|sends depth to your phone ~ electronics; " +
    "Telescopic Rod*: Carbon Fiber|Saltwater|Compact # fits in a backpack|sets up in seconds ~ rods",
    "Bass Fishing|Kayak Fishing|Beginners", "fishing;angler"),
  n("cycling", 29,
    "Bike Light+: Rechargeable|Waterproof|USB|Bright # makes you visible at night|charges from any USB port ~ bike lights|safety; " +
    "Bike Phone Mount: Quick-Release|Aluminum|Waterproof # keeps your route in sight|holds your phone over bumps ~ handlebar; " +
    "Bike Bell: Quick-Release|Aluminum|Waterproof # makes every ride safer|rings loud enough for busy paths ~ handlebar|safety; " +
    "Bike Lock: Anti-Theft|Folding|Heavy-Duty # keeps your bike where you left it|resists bolt cutters ~ security; " +
    "Saddle Cover: Gel|Waterproof|Memory Foam # makes long rides comfortable|softens a hard saddle ~ comfort; " +
    "Bike Pump*: Mini|Floor|Rechargeable # fixes a flat on the roadside|fits in a jersey pocket ~ repair; " +
    "Cycling Gloves: Gel|Padded|Reflective|Fingerless # makes long rides comfortable|keeps your grip in the wet ~ apparel; " +
    "Pannier Bag: Waterproof|Reflective|Quick-Release # carries a day's load on the bike|keeps your laptop dry in the rain ~ bike bags|commute",
    "Commuters|Mountain Bikes|Road Bikes|Kids Bikes", "cycling;bike"),
  n("car-accessories", 24,
    "Car Vacuum*: Cordless|Rechargeable|Handheld|Compact # keeps the car clean between washes|reaches under every seat ~ car cleaning; " +
    "Tire Inflator*: Cordless|Rechargeable|Handheld|Compact # inflates a tire in minutes|stops at the pressure you set ~ tires; " +
    "Seat Gap Filler+: Collapsible|Leather|Universal # stops things falling between seats|fits almost any car ~ car organization; " +
    "Trunk Organizer|Backseat Organizer: Collapsible|Leather|Universal # keeps the car tidy|stops groceries sliding around ~ car organization; " +
    "Dash Cam: Wide-Angle|Night Vision|Wireless # records every drive|keeps proof of what happened ~ dash cam|safety; " +
    "Sun Shade: Foldable|Umbrella|Reflective # keeps the car cool in the sun|opens and folds in seconds ~ summer; " +
    "Car Diffuser: Wireless|Vent Clip|Aromatherapy # keeps the car smelling fresh|clips on any vent ~ car interior; " +
    "Seat Cushion|Steering Wheel Cover: Heated|Leather|Memory Foam|Universal # makes long drives comfortable|fits almost any car ~ car interior",
    "Cars|SUVs|Road Trips|New Drivers", "car;car accessories"),
  n("travel", 26,
    "Packing Cubes+|Compression Bag+: Compact|Lightweight|Waterproof|Zippered # fits a week into a carry-on|keeps a suitcase organized ~ packing; " +
    "Neck Pillow*: Memory Foam|Inflatable|Adjustable # makes long flights restful|keeps your head from dropping ~ flights; " +
    "Luggage Scale*: Digital|Universal|Compact # avoids overweight fees|weighs a bag before you leave ~ travel gadgets; " +
    "Travel Adapter*: Digital|Universal|Compact # works in almost any country|charges several devices from one socket ~ travel gadgets; " +
    "Toiletry Bag|Carry-On Organizer: Hanging|Waterproof|TSA-Approved|Quilted # keeps toiletries together|gets through security faster ~ packing; " +
    "Passport Holder: RFID-Blocking|Leather|Slim # keeps travel documents together|slips into a jacket pocket ~ travel documents; " +
    "Luggage Tag+: RFID-Blocking|Leather|Slim # helps a lost bag find its way back|spots your bag on the carousel ~ luggage; " +
    "Travel Bottles+: TSA-Approved|Leak-Proof|Silicone # gets through security faster|never leaks in a bag ~ packing",
    "Carry-On|Long Flights|Backpackers|Business Trips", "travel;vacation"),
  n("bags", 33,
    "Crossbody Bag|Tote Bag|Phone Purse: Vegan Leather|Quilted|Canvas|Convertible|Lightweight @ Women|Travel|Everyday Carry # holds everything without the bulk|goes with every outfit ~ handbags; " +
    "Backpack|Laptop Sleeve|Gym Bag|Duffel Bag: Anti-Theft|Water-Resistant|Lightweight|Canvas|Convertible # keeps valuables safe in crowds|goes from gym to office ~ backpacks|travel bags; " +
    "Belt Bag: Water-Resistant|Nylon|Vegan Leather|Lightweight # keeps essentials hands-free|holds everything without the bulk ~ belt bags; " +
    "Diaper Backpack: Water-Resistant|Insulated|Convertible @ New Moms|Travel # holds everything for a day out with baby|keeps bottles warm or cold ~ diaper bags",
    "Women|Men|Travel|Everyday Carry", "bags;everyday carry"),
  n("jewelry", 19,
    "Necklace|Bracelet|Anklet|Pendant|Ring: Dainty|Gold-Plated|Sterling Silver|Hypoallergenic|Personalized|Layered|Obsidian! # makes a thoughtful gift|layers with everything ~ minimalist jewelry; " +
    "Hoop Earrings+|Stud Earrings+|Charm Bracelet: Gold-Plated|Sterling Silver|Hypoallergenic|Minimalist # never tarnishes|makes a thoughtful gift ~ earrings; " +
    "Jewelry Organizer: Velvet|Travel|Hanging # keeps necklaces from tangling|shows every piece at a glance ~ jewelry storage",
    "Women|Girlfriend|Mom|Best Friends", "jewelry;gifts for her"),
  n("watches", 39,
    "Watch Band+: Leather|Milanese|Silicone|Sport|Nylon @ Apple Watch|Men|Women # swaps styles in seconds|stays comfortable all day ~ watch bands; " +
    "Watch Winder: Leather|Wooden|Glass-Top # keeps automatic watches wound|keeps your collection safe ~ watch storage; " +
    "Watch Box: Leather|Wooden|Glass-Top # keeps your collection safe|shows every watch at a glance ~ watch storage; " +
    "Smart Watch|Minimalist Watch: Waterproof|Sport|Classic|Leather # stays comfortable all day|goes from the gym to dinner ~ wristwatches; " +
    "Watch Charger*: Magnetic|Wireless|Foldable @ Apple Watch # charges your watch overnight|folds into a pocket for travel ~ charging; " +
    "Pocket Watch: Vintage|Engraved|Mechanical # makes a keepsake gift|keeps time the old-fashioned way ~ wristwatches",
    "Apple Watch|Men|Women", "watches;accessories"),
  n("fashion-accessories", 17,
    "Hair Claw Clip+|Headband+: Oversized|Satin|Matte|Y2K @ Women|Teens # holds thick hair all day|finishes any outfit ~ hair accessories; " +
    "Beanie|Scarf|Gloves: Knit|Cashmere|Sherpa!|Chunky # keeps you warm on cold days|finishes any outfit ~ winter; " +
    "Bucket Hat: Reversible|Cotton|Y2K # keeps the sun off your face|finishes any outfit ~ hats; " +
    "Sunglasses: Polarized|Oversized|Vintage|Retro # blocks glare without the weight|finishes any outfit ~ sunglasses; " +
    "Belt: Leather|Reversible|Braided # finishes any outfit|goes with jeans or trousers ~ belts; " +
    "Bandana+: Cotton|Paisley|Vintage # can be worn five different ways|finishes any outfit ~ streetwear",
    "Women|Men|Teens", "fashion;style"),
  n("shoes", 36,
    "Slippers|Slides: Cloud|Memory Foam|Non-Slip|Sherpa! # feels like walking on clouds|keeps feet warm around the house ~ slippers; " +
    "Insoles+|Heel Grips+: Orthopedic|Arch-Support|Gel|Memory Foam # relieves foot pain on long shifts|makes any shoe fit better ~ foot care; " +
    "Sneaker Cleaner: Foam|Waterless # restores old sneakers|cleans shoes without a wash ~ sneakers|shoe care; " +
    "Shoe Rack: Stackable|Bamboo|Over-the-Door # clears shoes off the floor|holds a dozen pairs in a small space ~ storage; " +
    "Shoe Stretcher: Wooden|Adjustable # eases tight shoes overnight|breaks in new shoes without blisters ~ shoe care; " +
    "Waterproof Shoe Covers+: Reusable|Non-Slip|Silicone # keeps shoes dry in the rain|slips over any shoe ~ rain",
    "Plantar Fasciitis|Nurses|Runners|Kids", "shoes;footwear"),
  n("health", 28,
    "Posture Corrector: Adjustable|Breathable|Medical-Grade # pulls your shoulders back at the desk|eases back pain after long days ~ pain relief|posture; " +
    "Knee Brace: Adjustable|Breathable|Medical-Grade # supports your knee during workouts|steadies a sore knee on stairs ~ pain relief|joints; " +
    "Back Stretcher: Adjustable|Breathable|Medical-Grade # eases back pain after long days|stretches the spine in minutes ~ pain relief|posture; " +
    "Pill Organizer*: Weekly|Monthly|Travel # never misses a dose|sorts a whole week of pills ~ medication; " +
    "Blood Pressure Monitor: Digital|Wrist|Upper-Arm # checks blood pressure at home|keeps a record of every reading ~ monitoring; " +
    "Heating Pad|TENS Unit: Electric|Rechargeable|Wireless # eases back pain after long days|soothes sore muscles at home ~ pain relief; " +
    "Nasal Strips+: Breathable|Medical-Grade|Graduated # helps you breathe easier|opens the nose for a quieter night ~ wellness; " +
    "Compression Socks+: Breathable|Medical-Grade|Graduated # keeps legs fresh on long days|eases swelling on long flights ~ wellness",
    "Seniors|Back Pain|Runners|Desk Workers", "health;wellness"),
  n("sleep", 31,
    "Sleep Mask*+: Blackout|Contoured|Silk|Cooling # blocks every sliver of light|helps you fall asleep faster ~ sleep masks; " +
    "Weighted Blanket: Bamboo|Breathable|Cooling|Sherpa! # helps you fall asleep faster|feels like a calming hug ~ bedding; " +
    "Cooling Pillow: Bamboo|Breathable|Cooling|Sherpa! # keeps you cool all night|supports your neck as you sleep ~ bedding; " +
    "Pillow Spray: Lavender|Calming # helps you fall asleep faster|makes bedtime a ritual ~ relaxation; " +
    "White Noise Machine*: Silent|Rechargeable|Quiet # masks noise from the street|helps you fall asleep faster ~ sleep sound; " +
    "Bed Fan: Silent|Rechargeable|Quiet # keeps you cool all night|cools the bed without chilling the room ~ cooling; " +
    "Mouth Tape+: Silicone|Reusable|Gentle # keeps you breathing through your nose at night|helps you wake up without a dry mouth ~ sleep; " +
    "Ear Plugs+: Silicone|Reusable|Gentle # blocks out snoring|helps you sleep through the night ~ insomnia; " +
    "Sunrise Alarm Clock: Dimmable|Digital # wakes you gently with light|makes dark mornings easier ~ bedtime",
    "Side Sleepers|Hot Sleepers|Shift Workers|Light Sleepers", "sleep;bedtime"),
  n("massage", 37,
    "Massage Gun*|Neck Massager: Heated|Cordless|Deep Tissue|Rechargeable|Quiet # melts away knots in minutes|speeds up recovery ~ recovery; " +
    "Eye Massager: Heated|Cordless|Deep Tissue|Rechargeable|Quiet # eases tired eyes after screen time|helps you unwind before bed ~ relaxation; " +
    "Foot Massager|Shiatsu Pillow: Heated|Shiatsu|Electric # feels like a spa at home|melts away knots in minutes ~ spa at home; " +
    "Scalp Massager*|Massage Ball+: Silicone|Textured|Vibrating # eases tension in minutes|fits in a gym bag ~ self care; " +
    "Acupressure Mat: Linen|Eco-Friendly # eases back tension as you lie on it|helps you unwind before bed ~ relaxation",
    "Sore Muscles|Office Workers|Athletes|Seniors", "massage;relaxation"),
  n("bathroom", 23,
    "Shower Head|Shower Filter: Filtered|High-Pressure|Handheld|Rainfall # turns a shower into a spa|installs without tools ~ shower; " +
    "Toothbrush Holder|Soap Dispenser: Touchless|Wall-Mounted|Ceramic|Terrazzo! # keeps counters dry|keeps the sink tidy ~ bathroom organization; " +
    "Bath Mat: Diatomite|Quick-Dry|Non-Slip|Memory Foam # dries in minutes|keeps the floor dry and safe ~ bath mat; " +
    "Shower Caddy|Bathroom Organizer: Rustproof|Wall-Mounted|Adhesive # installs without tools|keeps every bottle within reach ~ bathroom organization; " +
    "Toilet Light: Motion-Activated|Color-Changing # lights the way at night without the glare|turns on as you walk in ~ night light; " +
    "Towel Warmer: Electric|Wall-Mounted # turns a shower into a spa|dries towels between uses ~ home spa",
    "Small Bathrooms|Kids|Renters", "bathroom;home spa"),
  n("cleaning", 20,
    "Scrub Brush+|Grout Cleaner|Dust Brush+: Stiff-Bristle|Rotating|Extendable # cuts scrubbing time in half|reaches every corner ~ scrubbing; " +
    "Lint Remover*: Reusable|Electric|Rechargeable # lifts pet hair in one pass|makes old sweaters look new ~ laundry; " +
    "Spin Mop: Extendable|Streak-Free|Self-Wringing # cleans floors without bending|wrings itself out with a push ~ floors; " +
    "Window Squeegee: Extendable|Streak-Free|Self-Wringing # leaves glass streak-free|reaches high windows from the ground ~ windows; " +
    "Microfiber Cloths+: Reusable|Streak-Free|Lint-Free # leaves glass streak-free|cleans with just water ~ cleaning cloths; " +
    "Electric Scrubber: Cordless|Rotating|Rechargeable # cuts scrubbing time in half|does the elbow work for you ~ scrubbing; " +
    "Drain Snake+: Reusable|Flexible # clears a clogged drain in minutes|saves a call to the plumber ~ drains",
    "Tile|Carpet|Windows|Pet Hair", "cleaning;home care"),
  n("storage-organization", 22,
    "Drawer Organizer+|Storage Bins+: Stackable|Expandable|Clear|Bamboo|Collapsible # keeps every drawer tidy|makes small spaces work ~ drawers; " +
    "Cable Box: Stackable|Expandable|Clear|Bamboo|Collapsible # hides a tangle of cables and chargers|keeps a power strip out of sight ~ cables; " +
    "Closet Organizer|Shoe Organizer|Hanging Shelf: Over-the-Door|Hanging|Collapsible # doubles the space in a closet|makes small spaces work ~ closet; " +
    "Under-Sink Organizer|Spice Drawer Insert: Pull-Out|Expandable|Rotating # doubles the space in a cabinet|keeps everything in reach ~ cabinets; " +
    "Pantry Labels+: Waterproof|Minimalist|Printed # makes a pantry look tidy|shows what goes where ~ pantry|labels",
    "Small Spaces|Closets|Pantries|Dorm Rooms", "organization;declutter"),
  n("gardening", 24,
    "Plant Stand|Raised Garden Bed: Wooden|Galvanized|Tiered|Metal # gives plants room to grow|makes a small space into a garden ~ garden furniture; " +
    "Self-Watering Pot+: Ceramic|Plastic|Macrame|Terrazzo! # keeps plants alive while you travel|waters from below for a week ~ planters|houseplants; " +
    "Hanging Planter+: Ceramic|Plastic|Macrame|Terrazzo! # shows off a favourite plant|frees up shelf space ~ planters|houseplants; " +
    "Grow Light: Full-Spectrum|Clip-On|Timer # grows herbs all year indoors|keeps houseplants thriving in dark rooms ~ indoor garden|houseplants; " +
    "Garden Kneeler: Ergonomic|Foldable|Stainless Steel # saves your knees|helps you back up with its handles ~ garden tools; " +
    "Pruning Shears: Ergonomic|Foldable|Stainless Steel # cuts stems cleanly in one snip|makes garden work easier ~ garden tools; " +
    "Seed Starter Tray+: Biodegradable|Reusable|Humidity-Dome # starts seeds weeks before spring|gets seedlings off to a strong start ~ seeds; " +
    "Soil Meter*: Digital|Moisture # tells you when to water|stops overwatering ~ plant care",
    "Houseplants|Succulents|Vegetable Gardens|Balconies", "gardening;plants"),
  n("tools-diy", 33,
    "Cordless Screwdriver|Mini Drill|Heat Gun: Rechargeable|Compact|Precision|USB-C # handles small jobs fast|fits in a kitchen drawer ~ power tools; " +
    "Stud Finder: Digital|Self-Leveling|Magnetic # finds studs on the first try|warns before you drill into a wire ~ measuring; " +
    "Laser Level: Digital|Self-Leveling|Magnetic # hangs shelves straight the first time|lines up a gallery wall in minutes ~ measuring; " +
    "Tool Organizer|Magnetic Wristband: Heavy-Duty|Wall-Mounted|Rolling # keeps screws within reach|keeps tools where you can find them ~ tool storage; " +
    "Tape Measure*: Magnetic|Digital|Heavy-Duty # measures a room without a helper|handles small jobs fast ~ measuring; " +
    "Work Light*: Rechargeable|Magnetic|Foldable # lights up dark corners|sticks to any metal surface ~ lighting",
    "DIY Projects|Homeowners|Woodworking", "tools;diy"),
  n("party-supplies", 16,
    "Balloon Arch Kit|Photo Booth Props+|Cake Topper+|Banner: Metallic|Personalized|Glitter|Reusable # makes any party photo-ready|goes up in minutes ~ decorations; " +
    "Party Lights+: LED|Glow-in-the-Dark|Color-Changing # sets the mood for the night|goes up in minutes ~ party lights; " +
    "Confetti Cannon+: Biodegradable|Metallic # wows every guest|makes a big moment bigger ~ confetti; " +
    "Table Cover+: Reusable|Metallic|Sequin # dresses up any table|goes up in minutes ~ tableware; " +
    "Piñata: Handmade|Unicorn|Star # wows every guest|is the highlight of a kids party ~ games",
    "Birthdays|Weddings|Baby Showers|Graduations", "party;celebration"),
  n("crafts", 18,
    "Embroidery Kit|Crochet Kit|Diamond Painting Kit|Candle Making Kit: Beginner-Friendly|Complete|Eco-Friendly|Origami! # has everything you need to start|makes a relaxing evening ~ craft kits; " +
    "Resin Molds+: Silicone|Reusable|Stainless Steel # releases every cast cleanly|turns out gift-worthy pieces ~ resin; " +
    "Clay Tools+: Silicone|Reusable|Stainless Steel # shapes fine details in clay|turns out gift-worthy pieces ~ clay; " +
    "Paint by Numbers: Framed|Acrylic|Beginner-Friendly # makes a relaxing evening|turns out gift-worthy pieces ~ painting; " +
    "Knitting Loom: Wooden|Adjustable # knits without needles|turns out gift-worthy pieces ~ knitting",
    "Adults|Kids|Beginners", "crafts;hobby"),
];

/** Added at a known rate to make ~10% of products match each word (for broad-query benchmarks). */
export const BROAD_WORDS = { portable: 0.1, set: 0.1 } as const;

/** Rare attributes (about 3 products in 10,000 each), for rare-word benchmarks; each fits the nouns that list it. */
export const RARE_WORDS = ["Himalayan", "Terrazzo", "Obsidian", "Kaleidoscope", "Origami", "Sherpa", "Marbled"];
export const RARE_WORD_RATE = 0.0003;
