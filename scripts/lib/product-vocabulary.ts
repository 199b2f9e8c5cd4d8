// Words for the catalogue generator (scripts/lib/product-generator.ts): ~40 niches, each a table of
// nouns -> the attributes (adjectives, materials) that fit THAT noun, as sellers write them in real
// listings, brand-less. "Vegan Eyelash Curler" or "LED Slippers" cannot happen: an attribute is only
// ever drawn from its own noun's list (docs/decisions/028). The broad words ("portable", "set") are
// added by the generator at a known rate (BROAD_WORDS) to the nouns they fit, so a search benchmark can
// rely on ~10% of the catalogue matching each.
//
// Table syntax (one string per niche, kept compact so the whole catalogue reads on a few screens):
//   "Noun A|Noun B: Attr1|Attr2 @ Audience1|Audience2; Noun C: Attr3"
// groups are separated by ";", nouns of a group share its attributes and (optional, after "@") its
// audiences, else the niche's. A noun ending in "*" may be called "Portable", one ending in "+" is sold
// in sets; an attribute ending in "!" is one of the rare words (a few products in 10,000 each).

export interface NounVocabulary {
  noun: string;
  /** Attributes that fit this noun (none shares a word with it: the generator checks). */
  attributes: string[];
  /** Rare attributes that fit it (RARE_WORDS). */
  rare: string[];
  audiences: string[];
  portable: boolean;
  sets: boolean;
}

export interface NicheVocabulary {
  slug: string;
  /** Median selling price in dollars (prices are log-normal around it). */
  price: number;
  nouns: NounVocabulary[];
  tags: string[];
  /** Completes "… that …" in descriptions. */
  benefits: string[];
}

const list = (text: string | undefined) =>
  (text ?? "")
    .split("|")
    .map((s) => s.trim())
    .filter(Boolean);

function n(slug: string, price: number, table: string, audiences: string, tags: string, benefits: string): NicheVocabulary {
  const nicheAudiences = list(audiences);
  const nouns: NounVocabulary[] = [];
  for (const group of table.split(";")) {
    const [nounPart, rest = ""] = group.split(":");
    const [attributePart, audiencePart] = rest.split("@");
    const attributes = list(attributePart);
    for (const raw of list(nounPart)) {
      const noun = raw.replace(/[*+]+$/, "");
      nouns.push({
        noun,
        attributes: attributes.filter((a) => !a.endsWith("!")),
        rare: attributes.filter((a) => a.endsWith("!")).map((a) => a.slice(0, -1)),
        audiences: audiencePart === undefined ? nicheAudiences : list(audiencePart),
        portable: /\*[+]?$|\+\*$/.test(raw),
        sets: /\+[*]?$|\*\+$/.test(raw),
      });
    }
  }
  return { slug, price, nouns, tags: list(tags.replace(/;/g, "|")), benefits: benefits.split(";") };
}

export const NICHES: NicheVocabulary[] = [
  n("pets", 24,
    "Slicker Brush|Grooming Glove|Nail Grinder: Self-Cleaning|Gentle|Quiet|Rechargeable; Lick Mat|Slow Feeder Bowl: Anti-Slip|Silicone|Dishwasher-Safe|Interactive; " +
    "Cooling Mat*: Washable|Foldable|Gel; Water Fountain: Quiet|Filtered|Stainless Steel @ Cats|Kittens|Small Dogs; Chew Toy+: Chew-Proof|Interactive|Squeaky|Rubber; " +
    "Harness|Leash: No-Pull|Reflective|Adjustable|Padded; Litter Mat: Washable|Honeycomb|Waterproof @ Cats|Kittens; Calming Bed: Orthopedic|Washable|Donut|Sherpa!; " +
    "Treat Pouch*: Clip-On|Silicone|Waterproof; Car Seat Cover: Waterproof|Quilted|Scratch-Proof @ Large Dogs|Small Dogs",
    "Dogs and Cats|Small Dogs|Large Dogs|Cats|Puppies|Kittens", "dogs;cats;pet care;grooming;pet toys",
    "keeps shedding off your sofa;turns mealtime into a game;calms anxious pets during storms;stands up to heavy chewers"),
  n("kitchen", 22,
    "Garlic Press|Can Opener|Herb Scissors: Stainless Steel|Rustproof|One-Handed|Heavy-Duty; Vegetable Chopper: Multi-Blade|Dishwasher-Safe|Manual; " +
    "Spice Rack|Pan Organizer: Space-Saving|Bamboo|Wall-Mounted|Expandable; Oil Sprayer: Glass|Refillable|Leak-Proof; Knife Sharpener: Diamond|Ceramic|Handheld; " +
    "Salad Spinner: Collapsible|Dishwasher-Safe; Butter Dish: Ceramic|Glass|Covered|Marbled!; Measuring Spoons+|Egg Separator: Stainless Steel|Silicone|Magnetic",
    "Home Cooks|Small Kitchens|Meal Prep|Busy Families", "kitchen;cooking;meal prep;kitchen gadgets",
    "cuts prep time in half;keeps counters clear;cleans up in seconds;makes weeknight cooking easier"),
  n("bakeware", 19,
    "Silicone Baking Mat+|Donut Mold+: Non-Stick|Food-Grade|Reusable|Heat-Resistant; Cake Pan|Muffin Tray: Non-Stick|Springform|Carbon Steel|Dishwasher-Safe; " +
    "Cookie Cutter+|Piping Bag+: Stainless Steel|Reusable|Embossed; Bread Proofing Basket: Rattan|Round|Oval @ Home Bakers|Sourdough Lovers; " +
    "Rolling Pin: Wooden|Marble|Adjustable|Embossed; Cooling Rack|Pastry Brush: Stainless Steel|Stackable|Silicone",
    "Home Bakers|Sourdough Lovers|Kids Baking", "baking;bakeware;desserts;sourdough",
    "releases every bake cleanly;replaces parchment paper;gives bakery-style results at home"),
  n("coffee-tea", 26,
    "Pour-Over Kettle: Gooseneck|Electric|Temperature-Control; Milk Frother*: Handheld|Rechargeable|Electric; Cold Brew Maker|French Press: Borosilicate|Glass|Double-Wall|Leak-Proof; " +
    "Tea Infuser+: Stainless Steel|Silicone|Fine-Mesh @ Tea Drinkers; Coffee Scale|Coffee Grinder: Digital|Burr|Rechargeable|Manual @ Coffee Lovers|Home Baristas; " +
    "Espresso Tamper: Calibrated|Stainless Steel|Spring-Loaded @ Home Baristas; Matcha Whisk: Bamboo|Handmade @ Tea Drinkers; Drip Stand: Wooden|Adjustable|Ceramic",
    "Coffee Lovers|Tea Drinkers|Home Baristas", "coffee;tea;barista;morning routine",
    "makes cafe-quality drinks at home;brews smoother coffee;froths milk in seconds"),
  n("drinkware", 21,
    "Tumbler*|Water Bottle*|Travel Mug*: Insulated|Leak-Proof|Stainless Steel|Vacuum-Sealed|Motivational; Wine Glass+|Beer Mug+|Glass Jar+: Stemless|Shatterproof|Stackable|Frosted @ Office|Road Trips; " +
    "Shaker Bottle*: Leak-Proof|Protein @ Gym; Straw Cup|Kids Cup: Spill-Proof|Shatterproof|Stackable @ Kids|Road Trips",
    "Gym|Office|Kids|Road Trips", "hydration;drinkware;tumblers;bottles",
    "keeps drinks cold for 24 hours;reminds you to drink more water;fits every cup holder"),
  n("beauty", 27,
    "Makeup Brush+: Vegan|Soft-Bristle|Synthetic|Cruelty-Free; Eyelash Curler|Brow Stencil: Heated|Stainless Steel|Reusable; Makeup Organizer: Rotating|Acrylic|Clear; " +
    "Beauty Blender+: Latex-Free|Vegan|Reusable; Nail Drill: Electric|Rechargeable|Professional|Quiet; Lash Kit: Magnetic|Reusable|Cruelty-Free; " +
    "Vanity Mirror: Lighted|Magnifying|Tri-Fold; Makeup Bag*: Travel-Size|Waterproof|Quilted; Gua Sha Stone: Rose Quartz|Jade|Obsidian!",
    "Beginners|Makeup Artists|Sensitive Skin", "beauty;makeup;nails;lashes",
    "gives a flawless finish;keeps your vanity tidy;salon results at home"),
  n("skincare", 29,
    "Face Roller|Ice Roller: Rose Quartz|Jade|Cooling|Depuffing; Facial Steamer|Pore Vacuum: Ionic|Nano|Rechargeable; Sheet Mask+|Eye Patch+: Hydrating|Cooling|Collagen|Depuffing; " +
    "Blackhead Remover: Stainless Steel|Gentle|Ultrasonic; Face Cleansing Brush|Microcurrent Wand: Silicone|Sonic|Waterproof|Rechargeable; Derma Roller: Titanium|Microneedle",
    "Oily Skin|Dry Skin|Sensitive Skin|Men", "skincare;self care;glow;anti-aging",
    "reduces puffiness in minutes;leaves skin glowing;unclogs pores gently"),
  n("hair-care", 31,
    "Hair Dryer Brush|Hair Straightener|Curling Wand: Ionic|Ceramic|Tourmaline|Cordless|Anti-Frizz; Heatless Curler|Satin Bonnet|Silk Scrunchie+: Silk|Satin|Overnight|Sherpa!; " +
    "Scalp Massager*|Detangling Brush*: Silicone|Soft-Bristle|Wet; Hair Clip+: Claw|Matte|Non-Slip; Hair Towel: Microfiber|Quick-Dry|Anti-Frizz",
    "Curly Hair|Thick Hair|Fine Hair|Kids", "hair care;hairstyling;curls;haircare",
    "styles without heat damage;tames frizz overnight;cuts drying time"),
  n("fitness", 34,
    "Resistance Bands*+: Fabric|Latex|Heavy-Duty|Adjustable; Ab Roller|Push-Up Board: Non-Slip|Foldable|Wide-Wheel; Jump Rope*: Speed|Weighted|Cordless|Smart; " +
    "Kettlebell|Ankle Weights+: Adjustable|Cast Iron|Neoprene|Heavy-Duty; Grip Strengthener*: Adjustable|Silicone; Pull-Up Bar: Doorway|Heavy-Duty|No-Screw; " +
    "Balance Board: Wooden|Non-Slip; Massage Gun*: Quiet|Deep Tissue|Rechargeable @ Athletes|Home Workouts; Weighted Vest: Adjustable|Breathable|Reflective",
    "Home Workouts|Beginners|Athletes|Seniors", "fitness;home gym;workout;strength training",
    "turns any room into a gym;builds strength in minutes a day;tracks every rep"),
  n("yoga", 28,
    "Yoga Mat*: Eco-Friendly|Cork|Extra-Thick|Non-Slip|Alignment-Line; Yoga Block+|Yoga Wheel: Cork|Foam|Eco-Friendly; Meditation Cushion: Buckwheat|Velvet|Round; " +
    "Stretching Strap*|Yoga Towel: Cotton|Sweat-Absorbent|Non-Slip; Foam Roller*|Balance Pad: High-Density|Textured|Soft",
    "Beginners|Hot Yoga|Pilates|Stretching", "yoga;pilates;mindfulness;stretching",
    "grips even in hot yoga;deepens every stretch;cushions sensitive knees"),
  n("home-decor", 32,
    "Wall Shelf|Bookends: Floating|Wooden|Rustic|Metal|Minimalist; Throw Pillow Cover+: Boho|Velvet|Linen|Sherpa!; Wall Art+|Picture Frame+: Boho|Minimalist|Framed|Mid-Century|Origami!; " +
    "Vase|Candle Holder: Ceramic|Glass|Minimalist|Terrazzo!; Table Runner|Tapestry: Boho|Macrame|Linen; Wall Mirror: Round|Arched|Rattan; Faux Plant: Potted|Hanging|Lifelike",
    "Living Room|Bedroom|Apartment|Nursery", "home decor;interior;aesthetic;boho",
    "makes any room feel finished;adds warmth to bare walls;looks far pricier than it is"),
  n("lighting", 29,
    "Sunset Lamp|Moon Lamp: Dimmable|Touch|Color-Changing|Rechargeable; Night Light+|Motion Sensor Light+: Plug-In|Motion-Activated|Warm White|Rechargeable|LED; " +
    "Strip Lights|Fairy Lights: LED|Color-Changing|Remote-Controlled|Solar; Desk Lamp|Floor Lamp: LED|Dimmable|Adjustable|Touch|Arc; Galaxy Projector: Remote-Controlled|Rotating; " +
    "Neon Sign: LED|Custom|Wall-Mounted; Salt Lamp: Himalayan!|Dimmable",
    "Bedroom|Kids Room|Gaming Setup|Closet", "lighting;ambient light;room decor;night light",
    "creates a calm mood at night;lights the way without waking anyone;transforms a room in one click"),
  n("smart-home", 39,
    "Smart Plug+|Smart Bulb+|Smart Switch: Wi-Fi|Voice-Controlled|App-Controlled|Energy-Monitoring; Video Doorbell|Pet Camera|Baby Monitor: Wi-Fi|Night Vision|Battery-Powered|Two-Way Audio; " +
    "Door Sensor+|Temperature Sensor+: Wireless|Battery-Powered; Smart Lock: Keyless|Fingerprint|Wi-Fi; Robot Vacuum: Self-Emptying|App-Controlled|Slim",
    "Apartments|Renters|Families", "smart home;home automation;security;wifi",
    "lets you check home from anywhere;cuts your energy bill;works with voice assistants"),
  n("phone-accessories", 18,
    "Phone Case|Wallet Case: Shockproof|MagSafe-Compatible|Clear|Leather; Phone Stand*|Car Mount|Phone Grip: Foldable|Magnetic|Adjustable|Aluminum; Screen Protector+: Tempered Glass|Privacy|Matte; " +
    "Charging Cable+: Braided|Fast-Charging|USB-C; Selfie Stick*|Camera Lens Kit*: Bluetooth|Extendable|Wide-Angle; Phone Lanyard: Crossbody|Adjustable|Braided",
    "iPhone|Android|Content Creators", "phone;mobile accessories;iphone;android",
    "survives drops from head height;keeps your phone at eye level;charges twice as fast"),
  n("tech-gadgets", 33,
    "Power Bank*: Magnetic|Solar|Fast-Charging|Slim; Bluetooth Tracker+|Key Finder+: Waterproof|Loud|Rechargeable; Mini Projector*|Pocket Printer*: Wireless|Rechargeable|Bluetooth; " +
    "Label Maker*: Bluetooth|Handheld|Rechargeable; Desk Fan: USB|Quiet|Rechargeable|Clip-On; Digital Caliper: Stainless Steel|Precision; Smart Ring: Titanium|Waterproof; USB Hub: Aluminum|Powered|USB-C",
    "Travelers|Students|Remote Workers", "gadgets;tech;cool gadgets;electronics",
    "fits in a pocket;finds lost keys in seconds;keeps devices charged all day"),
  n("audio", 36,
    "Earbuds|Bone Conduction Headphones: True Wireless|Noise-Cancelling|Waterproof|Open-Ear; Bluetooth Speaker*: Waterproof|Bass-Boosted|Rugged|Mini; " +
    "Sleep Headphones: Soft|Ultra-Thin|Washable @ Side Sleepers; Headphone Stand: Wooden|Aluminum|RGB; Karaoke Microphone*: Wireless|Bluetooth @ Parties|Kids; " +
    "Record Player|Soundbar: Retro|Bluetooth|Vintage|Compact",
    "Runners|Side Sleepers|Parties|Gamers", "audio;music;headphones;speakers",
    "blocks out the noisy commute;lasts a whole weekend on one charge;sounds bigger than it looks"),
  n("gaming", 35,
    "Controller Grip+|Thumb Grips+: Ergonomic|Non-Slip|Silicone; Gaming Mouse Pad|Desk Mat: RGB|Extended|Stitched-Edge; Headset Stand: RGB|Aluminum; Cooling Pad: Quiet|RGB|Adjustable; " +
    "Controller Charger: Dual|Fast-Charging|Magnetic @ Console Gamers; Cable Organizer+: Magnetic|Adhesive|Silicone; Gaming Chair Cushion: Memory Foam|Anti-Fatigue",
    "PC Gamers|Console Gamers|Streamers", "gaming;gamer;esports;pc gaming",
    "keeps you comfortable through long sessions;tidies the whole desk;keeps controllers charged"),
  n("office", 27,
    "Laptop Stand*|Monitor Riser: Ergonomic|Height-Adjustable|Aluminum|Foldable; Desk Organizer|Desk Drawer|Document Holder: Bamboo|Mesh|Under-Desk|Clip-On; Footrest|Wrist Rest|Lumbar Pillow: Memory Foam|Ergonomic|Gel; " +
    "Cable Clips+: Adhesive|Silicone|Magnetic; Whiteboard: Magnetic|Glass|Desktop",
    "Home Office|Remote Workers|Students", "office;work from home;desk;productivity",
    "fixes your posture at the desk;clears clutter from your workspace;makes long calls comfortable"),
  n("stationery", 14,
    "Planner|Notebook+|Bullet Journal|Desk Calendar: Undated|Dotted|Leather|Hardcover|Aesthetic|Marbled!|Origami!; Gel Pens+|Highlighters+|Fountain Pen: Pastel|Erasable|Refillable|Fine-Tip; " +
    "Washi Tape+|Sticky Notes+|Sticker Book: Pastel|Aesthetic|Transparent",
    "Students|Journaling|Teachers", "stationery;journaling;study;planner",
    "keeps your week on track;makes note-taking fun;never smudges"),
  n("baby", 29,
    "Baby Carrier: Ergonomic|Breathable|Hands-Free; Bottle Warmer: Fast|BPA-Free|Travel; Teether+|Pacifier Clip+: Silicone|BPA-Free|Wooden|Soothing; White Noise Machine*: Soothing|Rechargeable; " +
    "Baby Monitor Mount|Bath Seat: Universal|Non-Slip; Bib+|Swaddle+|Nursing Pillow: Organic Cotton|Muslin|Waterproof|Breathable|Sherpa!; Diaper Caddy: Felt|Foldable|Waterproof",
    "Newborns|Toddlers|New Moms|Twins", "baby;newborn;parenting;nursery",
    "soothes a fussy baby;frees both hands;makes night feeds easier"),
  n("kids-toys", 21,
    "Busy Board|Montessori Toy|Puzzle+|Building Blocks+: Wooden|Educational|Sensory|Montessori|STEM; Magnetic Tiles+: Educational|Transparent|STEM; Drawing Tablet*: LCD|Erasable|Screen-Free; " +
    "Bubble Machine*: Automatic|Rechargeable; Kinetic Sand+: Sensory|Glow-in-the-Dark; Play Tent: Foldable|Castle|Kaleidoscope!; Ride-On Toy: Wooden|Balance",
    "Toddlers|Kids 3-5|Kids 6-10|Preschoolers", "toys;kids;educational toys;gifts for kids",
    "keeps little hands busy for hours;teaches while they play;is screen-free fun"),
  n("outdoor", 31,
    "Hammock*|Picnic Blanket*: Waterproof|Quick-Dry|Foldable|Parachute Nylon; Bug Zapper|Solar Lantern+|Patio Umbrella Light: Solar-Powered|Rechargeable|Weatherproof|LED; " +
    "Outdoor Cushion+|Fire Pit Cover: Weatherproof|UV-Resistant|Heavy-Duty; Hose Nozzle: High-Pressure|Adjustable|Metal; Bird Feeder: Squirrel-Proof|Hanging|Window; Windproof Lighter*: Rechargeable|Arc",
    "Backyard|Patio|Balcony|Garden Parties", "outdoor;backyard;patio;summer",
    "turns the backyard into a retreat;keeps bugs away all evening;packs away in seconds"),
  n("camping", 34,
    "Camping Lantern*|Tent Light*|Headlamp: Rechargeable|Waterproof|Collapsible|Solar; Sleeping Pad|Camping Hammock|Camp Chair: Ultralight|Inflatable|Compact|Foldable; " +
    "Camping Stove*|Water Filter*: Compact|Ultralight|Collapsible; Cooler Bag*: Insulated|Leak-Proof|Soft-Sided; Multi-Tool*: Stainless Steel|Pocket",
    "Backpackers|Car Camping|Hikers|Survival Kits", "camping;hiking;outdoors;survival",
    "weighs almost nothing in your pack;lights the whole campsite;works anywhere off-grid"),
  n("fishing", 27,
    "Fishing Lure+: Lifelike|Saltwater|Floating|Jointed; Tackle Box*|Bait Bucket: Waterproof|Compact|Aerated; Fishing Line: Braided|Saltwater|Monofilament; " +
    "Rod Holder|Fishing Pliers: Stainless Steel|Aluminum|Adjustable; Fish Finder*: Wireless|Sonar|Castable; Telescopic Rod*: Carbon Fiber|Saltwater|Compact",
    "Bass Fishing|Kayak Fishing|Beginners", "fishing;angler;bass fishing;outdoors",
    "catches fish when nothing else works;keeps tackle organized;fits in a backpack"),
  n("cycling", 29,
    "Bike Light+: Rechargeable|Waterproof|USB|Bright; Bike Phone Mount|Bike Bell: Quick-Release|Aluminum|Waterproof; Bike Lock: Anti-Theft|Folding|Heavy-Duty; " +
    "Saddle Cover: Gel|Waterproof|Memory Foam; Bike Pump*: Mini|Floor|Rechargeable; Cycling Gloves: Gel|Padded|Reflective|Fingerless; Pannier Bag: Waterproof|Reflective|Quick-Release",
    "Commuters|Mountain Bikes|Road Bikes|Kids Bikes", "cycling;bike;commute;mtb",
    "makes you visible at night;keeps your bike where you left it;makes long rides comfortable"),
  n("car-accessories", 24,
    "Car Vacuum*|Tire Inflator*: Cordless|Rechargeable|Handheld|Compact; Seat Gap Filler+|Trunk Organizer|Backseat Organizer: Collapsible|Leather|Universal; Dash Cam: Wide-Angle|Night Vision|Wireless; " +
    "Sun Shade: Foldable|Umbrella|Reflective; Car Diffuser: Wireless|Vent Clip|Aromatherapy; Seat Cushion|Steering Wheel Cover: Heated|Leather|Memory Foam|Universal",
    "Cars|SUVs|Road Trips|New Drivers", "car;auto;car accessories;road trip",
    "keeps the car clean between washes;stops things falling between seats;inflates a tire in minutes"),
  n("travel", 26,
    "Packing Cubes+|Compression Bag+: Compact|Lightweight|Waterproof|Zippered; Neck Pillow*: Memory Foam|Inflatable|Adjustable; Luggage Scale*|Travel Adapter*: Digital|Universal|Compact; " +
    "Toiletry Bag|Carry-On Organizer: Hanging|Waterproof|TSA-Approved|Quilted; Passport Holder|Luggage Tag+: RFID-Blocking|Leather|Slim; Travel Bottles+: TSA-Approved|Leak-Proof|Silicone",
    "Carry-On|Long Flights|Backpackers|Business Trips", "travel;packing;luggage;vacation",
    "fits a week into a carry-on;makes long flights restful;avoids overweight fees"),
  n("bags", 33,
    "Crossbody Bag|Tote Bag|Phone Purse: Vegan Leather|Quilted|Canvas|Convertible|Lightweight @ Women|Travel|Everyday Carry; Backpack|Laptop Sleeve|Gym Bag|Duffel Bag: Anti-Theft|Water-Resistant|Lightweight|Canvas|Convertible; " +
    "Belt Bag: Water-Resistant|Nylon|Vegan Leather|Lightweight; Diaper Backpack: Water-Resistant|Insulated|Convertible @ New Moms|Travel",
    "Women|Men|Travel|Everyday Carry", "bags;accessories;everyday carry;travel bags",
    "holds everything without the bulk;keeps valuables safe in crowds;goes from gym to office"),
  n("jewelry", 19,
    "Necklace|Bracelet|Anklet|Pendant|Ring: Dainty|Gold-Plated|Sterling Silver|Hypoallergenic|Personalized|Layered|Obsidian!; Hoop Earrings+|Stud Earrings+|Charm Bracelet: Gold-Plated|Sterling Silver|Hypoallergenic|Minimalist; " +
    "Jewelry Organizer: Velvet|Travel|Hanging",
    "Women|Girlfriend|Mom|Best Friends", "jewelry;gifts for her;accessories;minimalist jewelry",
    "never tarnishes;makes a thoughtful gift;layers with everything"),
  n("watches", 39,
    "Watch Band+: Leather|Milanese|Silicone|Sport|Nylon @ Apple Watch|Men|Women; Watch Winder|Watch Box: Leather|Wooden|Glass-Top; Smart Watch|Minimalist Watch: Waterproof|Sport|Classic|Leather; " +
    "Watch Charger*: Magnetic|Wireless|Foldable @ Apple Watch; Pocket Watch: Vintage|Engraved|Mechanical",
    "Apple Watch|Men|Women", "watches;smart watch;accessories;watch bands",
    "swaps styles in seconds;stays comfortable all day;keeps your collection safe"),
  n("fashion-accessories", 17,
    "Hair Claw Clip+|Headband+: Oversized|Satin|Matte|Y2K @ Women|Teens; Beanie|Scarf|Gloves: Knit|Cashmere|Sherpa!|Chunky; Bucket Hat: Reversible|Cotton|Y2K; Sunglasses: Polarized|Oversized|Vintage|Retro; " +
    "Belt: Leather|Reversible|Braided; Bandana+: Cotton|Paisley|Vintage",
    "Women|Men|Teens", "fashion;accessories;streetwear;style",
    "finishes any outfit;blocks glare without the weight;holds thick hair all day"),
  n("shoes", 36,
    "Slippers|Slides: Cloud|Memory Foam|Non-Slip|Sherpa!; Insoles+|Heel Grips+: Orthopedic|Arch-Support|Gel|Memory Foam; Sneaker Cleaner: Foam|Waterless; Shoe Rack: Stackable|Bamboo|Over-the-Door; " +
    "Shoe Stretcher: Wooden|Adjustable; Waterproof Shoe Covers+: Reusable|Non-Slip|Silicone",
    "Plantar Fasciitis|Nurses|Runners|Kids", "shoes;footwear;comfort;sneakers",
    "feels like walking on clouds;relieves foot pain on long shifts;restores old sneakers"),
  n("health", 28,
    "Posture Corrector|Knee Brace|Back Stretcher: Adjustable|Breathable|Medical-Grade; Pill Organizer*: Weekly|Monthly|Travel; Blood Pressure Monitor: Digital|Wrist|Upper-Arm; " +
    "Heating Pad|TENS Unit: Electric|Rechargeable|Wireless; Nasal Strips+|Compression Socks+: Breathable|Medical-Grade|Graduated",
    "Seniors|Back Pain|Runners|Desk Workers", "health;wellness;pain relief;posture",
    "eases back pain after long days;never misses a dose;supports joints during workouts"),
  n("sleep", 31,
    "Sleep Mask*+: Blackout|Contoured|Silk|Cooling; Weighted Blanket|Cooling Pillow: Bamboo|Breathable|Cooling|Sherpa!; Pillow Spray: Lavender|Calming; White Noise Machine*|Bed Fan: Silent|Rechargeable|Quiet; " +
    "Mouth Tape+|Ear Plugs+: Silicone|Reusable|Gentle; Sunrise Alarm Clock: Dimmable|Digital",
    "Side Sleepers|Hot Sleepers|Shift Workers|Light Sleepers", "sleep;bedtime;insomnia;relaxation",
    "blocks every sliver of light;helps you fall asleep faster;keeps you cool all night"),
  n("massage", 37,
    "Massage Gun*|Neck Massager|Eye Massager: Heated|Cordless|Deep Tissue|Rechargeable|Quiet; Foot Massager|Shiatsu Pillow: Heated|Shiatsu|Electric; Scalp Massager*|Massage Ball+: Silicone|Textured|Vibrating; " +
    "Acupressure Mat: Linen|Eco-Friendly",
    "Sore Muscles|Office Workers|Athletes|Seniors", "massage;recovery;relaxation;self care",
    "melts away knots in minutes;feels like a spa at home;speeds up recovery"),
  n("bathroom", 23,
    "Shower Head|Shower Filter: Filtered|High-Pressure|Handheld|Rainfall; Toothbrush Holder|Soap Dispenser: Touchless|Wall-Mounted|Ceramic|Terrazzo!; Bath Mat: Diatomite|Quick-Dry|Non-Slip|Memory Foam; " +
    "Shower Caddy|Bathroom Organizer: Rustproof|Wall-Mounted|Adhesive; Toilet Light: Motion-Activated|Color-Changing; Towel Warmer: Electric|Wall-Mounted",
    "Small Bathrooms|Kids|Renters", "bathroom;shower;home spa;organization",
    "turns a shower into a spa;keeps counters dry;installs without tools"),
  n("cleaning", 20,
    "Scrub Brush+|Grout Cleaner|Dust Brush+: Stiff-Bristle|Rotating|Extendable; Lint Remover*: Reusable|Electric|Rechargeable; Spin Mop|Window Squeegee: Extendable|Streak-Free|Self-Wringing; " +
    "Microfiber Cloths+: Reusable|Streak-Free|Lint-Free; Electric Scrubber: Cordless|Rotating|Rechargeable; Drain Snake+: Reusable|Flexible",
    "Tile|Carpet|Windows|Pet Hair", "cleaning;cleaning hacks;home care;tidy",
    "cuts scrubbing time in half;lifts pet hair in one pass;leaves glass streak-free"),
  n("storage-organization", 22,
    "Drawer Organizer+|Storage Bins+|Cable Box: Stackable|Expandable|Clear|Bamboo|Collapsible; Closet Organizer|Shoe Organizer|Hanging Shelf: Over-the-Door|Hanging|Collapsible; " +
    "Under-Sink Organizer|Spice Drawer Insert: Pull-Out|Expandable|Rotating; Pantry Labels+: Waterproof|Minimalist|Printed",
    "Small Spaces|Closets|Pantries|Dorm Rooms", "organization;storage;declutter;tidy home",
    "doubles the space in a cabinet;keeps every drawer tidy;makes small spaces work"),
  n("gardening", 24,
    "Plant Stand|Raised Garden Bed: Wooden|Galvanized|Tiered|Metal; Self-Watering Pot+|Hanging Planter+: Ceramic|Plastic|Macrame|Terrazzo!; Grow Light: Full-Spectrum|Clip-On|Timer; " +
    "Garden Kneeler|Pruning Shears: Ergonomic|Foldable|Stainless Steel; Seed Starter Tray+: Biodegradable|Reusable|Humidity-Dome; Soil Meter*: Digital|Moisture",
    "Houseplants|Succulents|Vegetable Gardens|Balconies", "gardening;plants;houseplants;garden",
    "keeps plants alive while you travel;grows herbs all year indoors;saves your knees"),
  n("tools-diy", 33,
    "Cordless Screwdriver|Mini Drill|Heat Gun: Rechargeable|Compact|Precision|USB-C; Stud Finder|Laser Level: Digital|Self-Leveling|Magnetic; Tool Organizer|Magnetic Wristband: Heavy-Duty|Wall-Mounted|Rolling; " +
    "Tape Measure*: Magnetic|Digital|Heavy-Duty; Work Light*: Rechargeable|Magnetic|Foldable",
    "DIY Projects|Homeowners|Woodworking", "tools;diy;home improvement;handyman",
    "finds studs on the first try;keeps screws within reach;handles small jobs fast"),
  n("party-supplies", 16,
    "Balloon Arch Kit|Photo Booth Props+|Cake Topper+|Banner: Metallic|Personalized|Glitter|Reusable; Party Lights+: LED|Glow-in-the-Dark|Color-Changing; Confetti Cannon+: Biodegradable|Metallic; " +
    "Table Cover+: Reusable|Metallic|Sequin; Piñata: Handmade|Unicorn|Star",
    "Birthdays|Weddings|Baby Showers|Graduations", "party;celebration;birthday;decorations",
    "makes any party photo-ready;goes up in minutes;wows every guest"),
  n("crafts", 18,
    "Embroidery Kit|Crochet Kit|Diamond Painting Kit|Candle Making Kit: Beginner-Friendly|Complete|Eco-Friendly|Origami!; Resin Molds+|Clay Tools+: Silicone|Reusable|Stainless Steel; " +
    "Paint by Numbers: Framed|Acrylic|Beginner-Friendly; Knitting Loom: Wooden|Adjustable",
    "Adults|Kids|Beginners", "crafts;diy crafts;hobby;handmade",
    "has everything you need to start;makes a relaxing evening;turns out gift-worthy pieces"),
];

/** Added at a known rate to make ~10% of products match each word (for broad-query benchmarks). */
export const BROAD_WORDS = { portable: 0.1, set: 0.1 } as const;

/** Rare attributes (about 3 products in 10,000 each), for rare-word benchmarks; each fits the nouns that list it. */
export const RARE_WORDS = ["Himalayan", "Terrazzo", "Obsidian", "Kaleidoscope", "Origami", "Sherpa", "Marbled"];
export const RARE_WORD_RATE = 0.0003;
